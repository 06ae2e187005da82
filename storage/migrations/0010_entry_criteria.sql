-- hoshi schema version 10: a tournament entry keeps the criteria its results file gave.
--
-- An h9 file's player lines carry the tournament program's criteria columns (MMS, SOS, …,
-- formats.md); the tournament page shows them. `criteria` holds them as canonical JSON: a
-- list of [title, value] pairs in file order (storage.codec). NULL: none (an entry added by
-- hand, a file without criteria, every row written before this version).

ALTER TABLE tournament_entries ADD COLUMN criteria TEXT;
