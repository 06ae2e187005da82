-- hoshi schema version 12: ratings kept exactly and professional ranks (rules.md §6).
--
-- A rating given at registration may carry up to three decimals (an EGD GoR: 2705.840,
-- rules.md §6 Decision). `rating` keeps a whole one as before; one with decimals is
-- `rating_milli`, in thousandths (2705840), with `rating` NULL. `pro` is N of a declared
-- professional rank Np (the rank is then 7d on the amateur ladder; GoR starts it at
-- 2700 + 30·(N − 1)); 0 for an amateur — a player's, and a tournament entry's (a guest
-- professional plays at that GoR).

ALTER TABLE players ADD COLUMN rating_milli INTEGER;
ALTER TABLE players ADD COLUMN pro INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournament_entries ADD COLUMN pro INTEGER NOT NULL DEFAULT 0;  -- an entry's Np
