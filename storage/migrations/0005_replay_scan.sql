-- hoshi schema version 5: the replay's scan in log order.
--
-- A replay reads all of a club's game rows in `seq` order (storage.history.club_events). With
-- this index SQLite walks them in that order and streams them; without it, it sorted a
-- million rows into a temporary B-tree before returning the first one.

CREATE INDEX games_club_seq ON games (club, seq);
