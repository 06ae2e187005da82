-- The SGF margin of a result (B+R, W+3.5: "R", "3.5"): kept and shown, never rated.
ALTER TABLE games ADD COLUMN margin TEXT;
