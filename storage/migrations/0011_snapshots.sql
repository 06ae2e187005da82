-- hoshi schema version 11: snapshots of the clubs' ledgers, and where rewrites reached.
--
-- A process start loads a club's newest valid snapshot and folds only the log entries after
-- it (storage.snapshots). `snapshots` is a projection (mutable, may be deleted): every
-- system's ledger, the club's current system, last log position, last calendar key, rejected
-- facts and cards, pickled into `data`; `version` is the code version that made it and
-- `digest` the sha256 of `data` (a torn or corrupt row is skipped).
--
-- `rewrites` is a projection too: "the write whose last log entry was at `seq` rewrote the
-- club's calendar from key (`moment`, `position`) on" (storage.projections.rebuild). A
-- snapshot, or another process's in-memory ledgers, folded up to log position S and calendar
-- key K stays valid only while no rewrite after S reaches K or earlier.

CREATE TABLE snapshots (
    club INTEGER NOT NULL,
    seq INTEGER NOT NULL,            -- the club's last log entry folded into the snapshot
    version TEXT NOT NULL,           -- storage.snapshots.code_version()
    digest TEXT NOT NULL,            -- sha256 of data, hex
    data BLOB NOT NULL,
    at TEXT NOT NULL,                -- when it was written (UTC, ISO 8601)
    PRIMARY KEY (club, seq, version)
);

CREATE TABLE rewrites (
    club INTEGER NOT NULL,
    seq INTEGER NOT NULL,            -- the club's last log entry when the rewrite was made
    moment INTEGER NOT NULL,         -- the earliest calendar key it rewrote (engine.calendar)
    position INTEGER NOT NULL,
    PRIMARY KEY (club, seq, moment, position)
);
