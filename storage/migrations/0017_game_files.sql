-- hoshi schema version 17: the SGF files games were recorded from (issue 4/5, item 5).
--
-- A file sent with /result (an .sgf) is kept in the log as soon as hoshi has read it and shows
-- what it will record: `game_files` holds its bytes and name under its own log entry (kind
-- `file`), so that the Record button names it by that entry and the file survives until the
-- confirmation (a restart between the two loses nothing). The game recorded from it names the
-- file in `game_sgf`, written in the same transaction as the game. Both are append-only: a
-- game undone or voided keeps its row, and the readers no longer offer its file.

CREATE TABLE game_files (
    seq INTEGER PRIMARY KEY REFERENCES log (seq),
    club INTEGER NOT NULL REFERENCES clubs (seq),
    name TEXT NOT NULL,              -- the file's name as sent (game.sgf), or '' when none
    data BLOB NOT NULL               -- the file's bytes as sent
);

CREATE TABLE game_sgf (
    seq INTEGER PRIMARY KEY REFERENCES games (seq),  -- the game (its log entry)
    file INTEGER NOT NULL REFERENCES game_files (seq)
);
CREATE INDEX game_sgf_file ON game_sgf (file);

CREATE TRIGGER game_files_no_update BEFORE UPDATE ON game_files
BEGIN SELECT RAISE(ABORT, 'game_files is append-only'); END;
CREATE TRIGGER game_files_no_delete BEFORE DELETE ON game_files
BEGIN SELECT RAISE(ABORT, 'game_files is append-only'); END;
CREATE TRIGGER game_sgf_no_update BEFORE UPDATE ON game_sgf
BEGIN SELECT RAISE(ABORT, 'game_sgf is append-only'); END;
CREATE TRIGGER game_sgf_no_delete BEFORE DELETE ON game_sgf
BEGIN SELECT RAISE(ABORT, 'game_sgf is append-only'); END;
