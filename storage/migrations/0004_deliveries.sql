-- hoshi schema version 4: chat updates already acted on (exactly-once delivery, issue 6/6).
--
-- Telegram delivers updates at least once: after a restart it may send again an update the bot
-- had already acted on. The key of an update (`telegram:BOT:UPDATE_ID`) is written in the same
-- transaction as the first change the update makes, so a redelivered update finds it and
-- changes nothing. Not part of the club log: rows older than a week are pruned.

CREATE TABLE deliveries (
    key TEXT PRIMARY KEY,
    at TEXT NOT NULL                 -- UTC ISO timestamp of the first handling
) WITHOUT ROWID;
CREATE INDEX deliveries_at ON deliveries (at);
