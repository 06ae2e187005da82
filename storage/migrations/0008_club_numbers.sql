-- hoshi schema version 8: games and tournaments numbered per club (#1, #2, …).
--
-- Members name a game or a tournament by its club number (`/void 3`), not by its log position
-- (`seq`, shared by every club and every kind of entry). The number is handed out at insert
-- (one more than the club's highest, storage.games.GAME_INSERT and storage.tournaments), so a
-- voided or undone entry keeps its number and no number is ever reused. Rows written before
-- this version are numbered here, per club in log order; the update triggers are lifted for
-- that one statement and put back as they were (the log stays append-only).

ALTER TABLE games ADD COLUMN number INTEGER;
ALTER TABLE tournaments ADD COLUMN number INTEGER;

DROP TRIGGER games_no_update;
DROP TRIGGER tournaments_no_update;

UPDATE games SET number = numbered.n
FROM (SELECT seq, ROW_NUMBER() OVER (PARTITION BY club ORDER BY seq) AS n FROM games) AS numbered
WHERE games.seq = numbered.seq;

UPDATE tournaments SET number = numbered.n
FROM (
    SELECT seq, ROW_NUMBER() OVER (PARTITION BY club ORDER BY seq) AS n FROM tournaments
) AS numbered
WHERE tournaments.seq = numbered.seq;

CREATE TRIGGER games_no_update BEFORE UPDATE ON games
BEGIN SELECT RAISE(ABORT, 'games is append-only'); END;
CREATE TRIGGER tournaments_no_update BEFORE UPDATE ON tournaments
BEGIN SELECT RAISE(ABORT, 'tournaments is append-only'); END;

CREATE UNIQUE INDEX games_club_number ON games (club, number);
CREATE UNIQUE INDEX tournaments_club_number ON tournaments (club, number);
