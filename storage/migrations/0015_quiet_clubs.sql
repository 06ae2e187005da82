-- hoshi schema version 15: clubs the scheduler found with nothing due (issue 2/5).
--
-- The scheduler asks each of a club's rating systems what it has due (a day's end, a month's
-- verification, a club period's close). The answer depends only on the club's log and the
-- club's day, so a club whose log has not moved since an answer of "nothing" on the same day
-- has nothing due still: `quiet_clubs` keeps that answer (the log position and the day it was
-- given at), and the next run, in this process or a new one, skips the club's ledgers
-- altogether. A projection: mutable, may be deleted (then every club is asked again).

CREATE TABLE quiet_clubs (
    club INTEGER PRIMARY KEY,
    seq INTEGER NOT NULL,            -- the club's last log entry when nothing was due
    day TEXT NOT NULL                -- the club's day then (YYYY-MM-DD)
);
