-- hoshi schema version 6: ratings follow the calendar (rules.md, top: "Calendar order").
--
-- Every system now folds a club's facts in calendar order (engine.calendar): a game at its
-- date, a tournament at its end date, a day, period or month end at its moment. Each
-- rating_history row carries the `moment` of the fact that caused it, and `seq` is that fact's
-- own log position (a game's, a tournament's creation, a registration's), so a reopened
-- tournament finalised again writes exactly the rows it had. A rewrite of the past deletes
-- and writes the rows from its moment on (the `rating_history_moment` index).
--
-- rating_history is a projection: it is dropped and built again from the log on the club's
-- next use (projection_state is emptied, so every club replays once).

DROP TABLE rating_history;

CREATE TABLE rating_history (
    club INTEGER NOT NULL,
    system TEXT NOT NULL,
    seq INTEGER NOT NULL,            -- the log position of the fact that caused the change
    idx INTEGER NOT NULL,            -- the change's index among that fact's changes
    moment INTEGER NOT NULL,         -- the fact's place in the calendar (engine.calendar)
    player INTEGER NOT NULL,
    date TEXT NOT NULL,
    source TEXT NOT NULL,
    rating_before TEXT NOT NULL,     -- JSON values
    rating_after TEXT NOT NULL,
    rank_before TEXT NOT NULL,
    rank_after TEXT NOT NULL,
    note TEXT NOT NULL,
    PRIMARY KEY (club, system, seq, idx)
) WITHOUT ROWID;
CREATE INDEX rating_history_player ON rating_history (club, system, player, moment, seq);
CREATE INDEX rating_history_moment ON rating_history (club, system, moment, seq);

DELETE FROM player_state;
DELETE FROM projection_state;

-- The replay reads a club's single games in calendar order (date, then log position).
CREATE INDEX games_club_calendar ON games (club, tournament, pending, date, seq);
