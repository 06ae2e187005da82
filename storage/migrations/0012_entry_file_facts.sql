-- hoshi schema version 12: a tournament entry keeps the byes, administrative results and
-- colourless games its results file gave.
--
-- An h9 file's round tokens 0+, 0= and 0- (OpenGotha XML: <ByePlayer>) say that a player had
-- no opponent in a round and what the round counted as (formats.md); the standings count them
-- and /export h9 writes them back. `byes` holds them as canonical JSON: a list of
-- [round, kind] pairs in round order, kind "win", "half" or "none" (storage.codec). NULL:
-- none (an entry added by hand, a file without byes, every row written before this version).

ALTER TABLE tournament_entries ADD COLUMN byes TEXT;

-- A game with an administrative result (OpenGotha's both win / both lose, formats.md) is stored
-- unplayed without a result; `administrative` keeps what it counted as for this entry: a list
-- of [round, outcome] pairs, outcome {"enum": "win"} or {"enum": "loss"}. NULL: none.

ALTER TABLE tournament_entries ADD COLUMN administrative TEXT;

-- A game the file gave without colours (h9 `23+`) is stored with the readers' convention for
-- black and white (formats.md); `colourless` lists the rounds of such games, so that an export
-- writes them without colours again: a list of round numbers. NULL: none.

ALTER TABLE tournament_entries ADD COLUMN colourless TEXT;
