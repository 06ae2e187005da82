-- hoshi schema version 1: the append-only club log and its projections.
--
-- Every fact is a row of the log. `log` hands out one global sequence number (`seq`) shared by
-- all tables, so the whole history has one order; each typed table's primary key is the seq of
-- its log entry. Nothing in the log tables is ever UPDATEd or DELETEd (the triggers at the end
-- refuse it): a void, a correction or an undo is a new row in `events` that names its target.
-- `player_state`, `rating_history` and `projection_state` are projections: folds of the log
-- through the engine, rebuilt at will.

CREATE TABLE log (
    seq INTEGER PRIMARY KEY,
    club INTEGER,                    -- the club the entry belongs to (a club's own seq)
    kind TEXT NOT NULL,              -- club, binding, player, alias, link, tournament, entry, game,
                                     -- or an event kind (void, correct, undo, override, ...)
    at TEXT NOT NULL,                -- UTC ISO timestamp
    actor TEXT NOT NULL,             -- telegram:123, discord:456, console, scheduler
    chat TEXT                        -- platform:chat id, or NULL
);
CREATE INDEX log_club ON log (club, seq);
CREATE INDEX log_club_actor ON log (club, actor, seq);

CREATE TABLE clubs (
    seq INTEGER PRIMARY KEY REFERENCES log (seq),
    name TEXT NOT NULL,
    folded TEXT NOT NULL UNIQUE,     -- the name folded for case/accent-insensitive lookup
    system TEXT NOT NULL             -- the rating system chosen at creation (a setting after)
);

CREATE TABLE chat_bindings (
    seq INTEGER PRIMARY KEY REFERENCES log (seq),
    club INTEGER NOT NULL REFERENCES clubs (seq),
    platform TEXT NOT NULL,
    chat_id TEXT NOT NULL
);
CREATE INDEX chat_bindings_chat ON chat_bindings (platform, chat_id, seq);
CREATE INDEX chat_bindings_club ON chat_bindings (club, seq);

CREATE TABLE players (
    seq INTEGER PRIMARY KEY REFERENCES log (seq),
    club INTEGER NOT NULL REFERENCES clubs (seq),
    name TEXT NOT NULL,
    rank TEXT NOT NULL,              -- the rank registered with, e.g. 5k
    date TEXT NOT NULL,              -- registration date (ISO)
    rating INTEGER,                  -- an initial rating given by the organiser, or NULL
    country TEXT,
    home_club TEXT,
    egd_pin TEXT,
    committee INTEGER NOT NULL DEFAULT 0,
    guest INTEGER NOT NULL DEFAULT 0 -- a tournament guest: stored, never a ranked player
);
CREATE INDEX players_club ON players (club, seq);

CREATE TABLE player_aliases (
    seq INTEGER PRIMARY KEY REFERENCES log (seq),
    club INTEGER NOT NULL REFERENCES clubs (seq),
    player INTEGER NOT NULL REFERENCES players (seq),
    alias TEXT NOT NULL
);
CREATE INDEX player_aliases_club ON player_aliases (club, seq);

CREATE TABLE account_links (
    seq INTEGER PRIMARY KEY REFERENCES log (seq),
    club INTEGER NOT NULL REFERENCES clubs (seq),
    player INTEGER NOT NULL REFERENCES players (seq),
    platform TEXT NOT NULL,
    account TEXT NOT NULL
);
CREATE INDEX account_links_account ON account_links (club, platform, account, seq);
CREATE INDEX account_links_player ON account_links (player, seq);

CREATE TABLE tournaments (
    seq INTEGER PRIMARY KEY REFERENCES log (seq),
    club INTEGER NOT NULL REFERENCES clubs (seq),
    name TEXT NOT NULL,
    start_date TEXT NOT NULL,
    end_date TEXT NOT NULL,
    rounds INTEGER NOT NULL,
    board INTEGER NOT NULL,
    time TEXT,                       -- str(TimeControl), re-parsed on reading
    even INTEGER NOT NULL,
    handicap_reduction INTEGER NOT NULL,
    participants INTEGER,
    invitational_or_national INTEGER NOT NULL,
    european_or_world INTEGER NOT NULL,
    multiplier INTEGER,              -- MGSZ C set by hand, or NULL
    arranged INTEGER NOT NULL,
    notes TEXT                       -- free text kept from an imported file
);
CREATE INDEX tournaments_club ON tournaments (club, seq);

CREATE TABLE tournament_entries (
    seq INTEGER PRIMARY KEY REFERENCES log (seq),
    club INTEGER NOT NULL REFERENCES clubs (seq),
    tournament INTEGER NOT NULL REFERENCES tournaments (seq),
    player INTEGER NOT NULL REFERENCES players (seq),
    rank TEXT NOT NULL,              -- the rank entered with
    registered INTEGER NOT NULL,
    country TEXT
);
CREATE INDEX tournament_entries_tournament ON tournament_entries (tournament, seq);

CREATE TABLE games (
    seq INTEGER PRIMARY KEY REFERENCES log (seq),
    club INTEGER NOT NULL REFERENCES clubs (seq),
    black INTEGER NOT NULL REFERENCES players (seq),
    white INTEGER NOT NULL REFERENCES players (seq),
    result TEXT,                     -- B+, W+, jigo, or NULL when unknown
    date TEXT NOT NULL,
    stones INTEGER NOT NULL,
    komi2 INTEGER NOT NULL,          -- komi in half points: 13 = 6.5
    played INTEGER NOT NULL,
    board INTEGER NOT NULL,
    time TEXT,
    tournament INTEGER REFERENCES tournaments (seq),
    round INTEGER,
    arranged INTEGER NOT NULL,
    counts_as_tournament INTEGER NOT NULL,
    pair_go INTEGER NOT NULL,
    reported TEXT,
    pending INTEGER NOT NULL         -- a player's report awaiting confirmation
);
CREATE INDEX games_club ON games (club, tournament, pending, seq);
CREATE INDEX games_tournament ON games (tournament, seq);
CREATE INDEX games_black ON games (black, seq);
CREATE INDEX games_white ON games (white, seq);

CREATE TABLE events (
    seq INTEGER PRIMARY KEY REFERENCES log (seq),
    club INTEGER NOT NULL REFERENCES clubs (seq),
    kind TEXT NOT NULL,
    target INTEGER,                  -- the seq the event is about (a game, player, tournament ...)
    key TEXT,                        -- an idempotency key (a date, a month, a join code hash)
    payload TEXT NOT NULL            -- JSON
);
CREATE INDEX events_club_kind ON events (club, kind, seq);
CREATE INDEX events_target ON events (target, seq);
CREATE INDEX events_key ON events (kind, key);

-- Projections: the only mutable tables.

CREATE TABLE player_state (
    club INTEGER NOT NULL,
    system TEXT NOT NULL,
    player INTEGER NOT NULL,
    card TEXT NOT NULL,              -- engine.system.Card as canonical JSON
    sort_key TEXT NOT NULL,          -- the card's sort key as JSON
    rank TEXT NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (club, system, player)
) WITHOUT ROWID;

CREATE TABLE rating_history (
    club INTEGER NOT NULL,
    system TEXT NOT NULL,
    seq INTEGER NOT NULL,            -- the log position of the event that caused the change
    idx INTEGER NOT NULL,            -- the change's index among that event's changes
    player INTEGER NOT NULL,
    date TEXT NOT NULL,
    source TEXT NOT NULL,
    rating_before TEXT NOT NULL,     -- JSON values
    rating_after TEXT NOT NULL,
    rank_before TEXT NOT NULL,
    rank_after TEXT NOT NULL,
    note TEXT NOT NULL,
    PRIMARY KEY (club, system, seq, idx)
) WITHOUT ROWID;
CREATE INDEX rating_history_player ON rating_history (club, system, player, seq);

CREATE TABLE projection_state (
    club INTEGER PRIMARY KEY,
    last_seq INTEGER NOT NULL,       -- the club's last log entry the projections include
    fingerprint TEXT NOT NULL        -- the systems (and versions) that built them
);

-- The log is append-only.
CREATE TRIGGER log_no_update BEFORE UPDATE ON log
BEGIN SELECT RAISE(ABORT, 'log is append-only'); END;
CREATE TRIGGER log_no_delete BEFORE DELETE ON log
BEGIN SELECT RAISE(ABORT, 'log is append-only'); END;
CREATE TRIGGER clubs_no_update BEFORE UPDATE ON clubs
BEGIN SELECT RAISE(ABORT, 'clubs is append-only'); END;
CREATE TRIGGER clubs_no_delete BEFORE DELETE ON clubs
BEGIN SELECT RAISE(ABORT, 'clubs is append-only'); END;
CREATE TRIGGER chat_bindings_no_update BEFORE UPDATE ON chat_bindings
BEGIN SELECT RAISE(ABORT, 'chat_bindings is append-only'); END;
CREATE TRIGGER chat_bindings_no_delete BEFORE DELETE ON chat_bindings
BEGIN SELECT RAISE(ABORT, 'chat_bindings is append-only'); END;
CREATE TRIGGER players_no_update BEFORE UPDATE ON players
BEGIN SELECT RAISE(ABORT, 'players is append-only'); END;
CREATE TRIGGER players_no_delete BEFORE DELETE ON players
BEGIN SELECT RAISE(ABORT, 'players is append-only'); END;
CREATE TRIGGER player_aliases_no_update BEFORE UPDATE ON player_aliases
BEGIN SELECT RAISE(ABORT, 'player_aliases is append-only'); END;
CREATE TRIGGER player_aliases_no_delete BEFORE DELETE ON player_aliases
BEGIN SELECT RAISE(ABORT, 'player_aliases is append-only'); END;
CREATE TRIGGER account_links_no_update BEFORE UPDATE ON account_links
BEGIN SELECT RAISE(ABORT, 'account_links is append-only'); END;
CREATE TRIGGER account_links_no_delete BEFORE DELETE ON account_links
BEGIN SELECT RAISE(ABORT, 'account_links is append-only'); END;
CREATE TRIGGER tournaments_no_update BEFORE UPDATE ON tournaments
BEGIN SELECT RAISE(ABORT, 'tournaments is append-only'); END;
CREATE TRIGGER tournaments_no_delete BEFORE DELETE ON tournaments
BEGIN SELECT RAISE(ABORT, 'tournaments is append-only'); END;
CREATE TRIGGER tournament_entries_no_update BEFORE UPDATE ON tournament_entries
BEGIN SELECT RAISE(ABORT, 'tournament_entries is append-only'); END;
CREATE TRIGGER tournament_entries_no_delete BEFORE DELETE ON tournament_entries
BEGIN SELECT RAISE(ABORT, 'tournament_entries is append-only'); END;
CREATE TRIGGER games_no_update BEFORE UPDATE ON games
BEGIN SELECT RAISE(ABORT, 'games is append-only'); END;
CREATE TRIGGER games_no_delete BEFORE DELETE ON games
BEGIN SELECT RAISE(ABORT, 'games is append-only'); END;
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events is append-only'); END;
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events is append-only'); END;
