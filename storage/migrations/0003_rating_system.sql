-- hoshi schema version 3: the rating system a registration was made under.
--
-- A rating given at registration is in that system's units (Elo, points); the club's other
-- systems take the rank as a recorded standing (engine.types.Registered.for_system). NULL for
-- registrations made before this version: read by every system as they were.

ALTER TABLE players ADD COLUMN rating_system TEXT;
