-- hoshi schema version 16: a quiet club's note names the rulebooks that gave it (issue 2/5).
--
-- `quiet_clubs` says a club has nothing due through a day (storage.schedules.quiet_through):
-- an answer of the rulebooks' code as much as of the club's log. Each note now carries the
-- versions of the rulebooks with scheduled moments that gave it
-- (storage.schedules.quiet_version); a deploy that changes one of them asks every club again
-- instead of trusting an answer its old code gave. A projection: the old notes go (every club
-- is asked once more).

DROP TABLE quiet_clubs;

CREATE TABLE quiet_clubs (
    club INTEGER PRIMARY KEY,
    seq INTEGER NOT NULL,            -- the club's last log entry when nothing was due
    day TEXT NOT NULL,               -- the last day through which nothing is due (YYYY-MM-DD)
    version TEXT NOT NULL            -- the rulebooks that said so (schedules.quiet_version)
);
