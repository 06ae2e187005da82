-- hoshi schema version 18: a chat account's link taken off (issue 26, item 4).
--
-- Links are approved by organisers now, so an approval can be wrong: `/link NAME remove`
-- takes an account off its player. `account_links` stays append-only and the newest entry of
-- an account wins: an unlink newer than the account's newest link leaves it linked to nobody
-- (storage.players._linked); a later link links it again.

CREATE TABLE account_unlinks (
    seq INTEGER PRIMARY KEY REFERENCES log (seq),
    club INTEGER NOT NULL REFERENCES clubs (seq),
    platform TEXT NOT NULL,
    account TEXT NOT NULL
);
CREATE INDEX account_unlinks_account ON account_unlinks (club, platform, account, seq);

CREATE TRIGGER account_unlinks_no_update BEFORE UPDATE ON account_unlinks
BEGIN SELECT RAISE(ABORT, 'account_unlinks is append-only'); END;
CREATE TRIGGER account_unlinks_no_delete BEFORE DELETE ON account_unlinks
BEGIN SELECT RAISE(ABORT, 'account_unlinks is append-only'); END;
