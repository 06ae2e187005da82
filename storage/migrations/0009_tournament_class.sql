-- hoshi schema version 9: a tournament keeps its EGF tournament class (A–D).
--
-- An h9 file's header `CL[A]`…`CL[D]` names the class (formats.md); a system that weighs a
-- tournament by its class (the EGF GoR, rules.md §6) reads it from here, else derives it from
-- the time control. NULL: no class given (every row written before this version).

ALTER TABLE tournaments ADD COLUMN klass TEXT;
