-- hoshi schema version 2: scheduled work.
--
-- Schedules and job runs are events like any other (kinds `schedule`, `job`, `dispute`), so the
-- log keeps them in order with who and when. A job's run is recorded once per occurrence: this
-- index makes a second record of the same occurrence impossible even if two processes race.

CREATE UNIQUE INDEX events_job_once ON events (club, key) WHERE kind = 'job';
CREATE INDEX log_club_at ON log (club, at);
