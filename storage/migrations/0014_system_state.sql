-- hoshi schema version 14: a projection per rating system (issue 2/5 "Fold only what a club uses").
--
-- A club's current rating system is folded on every write; every other system is a shadow,
-- folded only when asked (storage.projections). `system_state` says how far each system's
-- projection of a club has been written: its `player_state` and `rating_history` rows are those
-- of a fold of the club's log up to entry `seq`, which reached the calendar key
-- (`moment`, `position`), by the rulebook version `version` (storage.snapshots.system_version).
-- A rewrite of the past after `seq` that reached that key (`rewrites`) deleted the rows from
-- its own key on; the shadow writes them again when it catches up.
--
-- A projection: every club's rows are written again on its next use (projection_state is
-- emptied, so every club replays its current system once; the others when first asked).

CREATE TABLE system_state (
    club INTEGER NOT NULL,
    system TEXT NOT NULL,
    seq INTEGER NOT NULL,            -- the club's last log entry the system's rows include
    moment INTEGER NOT NULL,         -- the calendar key the fold reached (engine.calendar)
    position INTEGER NOT NULL,
    version TEXT NOT NULL,           -- the rulebook version that wrote them
    PRIMARY KEY (club, system)
);

DELETE FROM projection_state;
