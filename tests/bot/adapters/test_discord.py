"""The Discord adapter through the real discord.py client and ``app_commands.CommandTree``.

Interactions are injected as gateway events; discord.py converts the options, runs the
callbacks and answers over HTTP to the fake REST server (tests/fakes/discord.py), which records
every response.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from discord import app_commands

import storage
from bot.adapters.discord import (
    CONTENT_LIMIT,
    argument_text,
    option_name,
    options_of,
    render,
)
from bot.core.command_table import public_commands
from bot.core.commands import ORGANISER, Option, Param
from bot.core.replies import Picture, Reply, Table, Text
from engine.ranks import Rank
from storage.db import Database
from tests.bot.adapters.conftest import D_ADMIN, D_OTHER, D_PLAYER, NOW, DiscordBot, log_size
from tests.bot.core.fakechat import ADMIN, FakeChat
from tests.fakes import discord as fd

DATA = Path(__file__).resolve().parents[2] / "engine" / "formats" / "data"
EPHEMERAL = 64
CHANNEL_MESSAGE, DEFERRED, UPDATE_MESSAGE, AUTOCOMPLETE, MODAL = 4, 5, 7, 8, 9
OPTION_TYPES = {
    "player": 3,
    "text": 3,
    "rank": 3,
    "result": 3,
    "choice": 3,
    "system": 3,
    "int": 4,
    "number": 4,
    "grade": 3,
    "rating": 3,
    "date": 3,
    "month": 3,
    "komi": 3,
    "time": 3,
    "bool": 5,
    "file": 11,
}


def message_of(call: fd.Call) -> dict[str, Any]:
    """The message data of a callback (``{"type": 4, "data": …}``) or a follow-up."""
    body = call.body or {}
    return body.get("data", {}) if "type" in body and "data" in body else body


def content(call: fd.Call) -> str:
    data = message_of(call)
    parts = [data.get("content") or ""]
    for embed in data.get("embeds") or []:
        parts += [embed.get("title", ""), embed.get("description", "")]
    return "\n".join(p for p in parts if p)


def ephemeral(call: fd.Call) -> bool:
    return bool(message_of(call).get("flags", 0) & EPHEMERAL)


async def new_club(bot: DiscordBot) -> None:
    """An MGSZ club that speaks English (a new MGSZ club speaks Hungarian)."""
    (call,) = await bot.slash("club", D_ADMIN, action="new", value="Test Club mgsz")
    assert "Létrejött a klub" in content(call), content(call)  # in its rulebook's language
    (call,) = await bot.slash("club", D_ADMIN, action="set", value="language en")
    assert "language is now en" in content(call), content(call)


async def register(bot: DiscordBot, *players: tuple[str, str]) -> None:
    for name, rank in players:
        (call,) = await bot.slash("register", D_ADMIN, name=name, rank=rank)
        assert "Registered" in content(call), content(call)


# --- the tree ------------------------------------------------------------------------------


async def test_every_public_command_is_a_synced_slash_command(discord_bot: DiscordBot) -> None:
    public = [c.name for c in public_commands()]
    assert sorted(c.name for c in discord_bot.adapter.tree.get_commands()) == sorted(public)
    (sync,) = [c for c in discord_bot.fake.calls if c.method == "PUT"]
    assert sync.path == f"/applications/{fd.APP_ID}/guilds/{fd.GUILD_ID}/commands"
    assert sorted(c["name"] for c in sync.body) == sorted(public)


@pytest.mark.parametrize("name", [c.name for c in public_commands()])
async def test_options_are_typed_from_the_table(discord_bot: DiscordBot, name: str) -> None:
    cmd = next(c for c in public_commands() if c.name == name)
    (sync,) = [c for c in discord_bot.fake.calls if c.method == "PUT"]
    (synced,) = [c for c in sync.body if c["name"] == name]
    assert 1 <= len(synced["description"]) <= 100
    options = {o["name"]: o for o in synced.get("options", [])}
    params = options_of(cmd)
    assert len(options) == len(params)
    for param in params:
        positional = isinstance(param, Param)
        option = options[param.key if isinstance(param, Option) else param.name.lower()]
        assert option["type"] == OPTION_TYPES[param.kind], param
        required = isinstance(param, Param) and param.required and param.kind != "file"
        assert option["required"] == required, param
        if param.kind == "player":
            assert option.get("autocomplete") is True
        if positional and param.choices:
            assert [c["value"] for c in option["choices"]] == list(param.choices)
    required = [o["required"] for o in synced.get("options", [])]
    assert required == sorted(required, reverse=True)  # Discord: required options first


# --- commands ------------------------------------------------------------------------------


async def test_register_result_rating(discord_bot: DiscordBot) -> None:
    await new_club(discord_bot)
    await register(discord_bot, ("Nagy Péter", "5k"), ("Kovács Anna", "6k"))
    (call,) = await discord_bot.slash(
        "result", D_ADMIN, black="Nagy Péter", white="Kovács Anna", result="B+"
    )
    assert "Nagy Péter" in content(call)
    (card,) = await discord_bot.slash("rating", D_PLAYER, name="Nagy Péter")
    assert card.body["type"] == CHANNEL_MESSAGE
    (embed,) = message_of(card)["embeds"]
    assert embed["title"] == "Nagy Péter — 5k"
    assert "pending club games: 1" in embed["description"]
    assert not ephemeral(card)


async def test_player_names_autocomplete_from_the_club(discord_bot: DiscordBot) -> None:
    await new_club(discord_bot)
    await register(
        discord_bot, ("Szabó Éva", "5k"), ("Szabados Béla", "7k"), ("Kovács Anna", "6k")
    )
    choices = await discord_bot.complete("rating", "name", "szab", D_PLAYER)
    assert [c["value"] for c in choices] == ["Szabados Béla", "Szabó Éva"]
    choices = await discord_bot.complete("handicap", "b", "EVA", D_PLAYER)
    assert [c["value"] for c in choices] == ["Szabó Éva"]


async def test_autocomplete_in_an_unbound_server_offers_nothing(discord_bot: DiscordBot) -> None:
    assert await discord_bot.complete("rating", "name", "a", D_PLAYER) == []


async def test_errors_are_ephemeral(discord_bot: DiscordBot) -> None:
    await new_club(discord_bot)
    (call,) = await discord_bot.slash("rating", D_PLAYER, name="Nobody Atall")
    assert ephemeral(call)
    assert "Nobody Atall" in content(call)


def fill(param: Param | Option) -> Any:
    """A plausible value for a required option."""
    return {
        "player": "Nagy Péter",
        "int": 1,
        "number": 1,
        "rank": "5k",
        "grade": "5k",
        "rating": "2000",
        "result": "B+",
        "system": "mgsz",
    }.get(param.kind, param.choices[0] if param.choices else "x")


ORGANISER_COMMANDS = [c.name for c in public_commands() if c.access == ORGANISER]


def test_the_table_has_organiser_commands() -> None:
    assert ORGANISER_COMMANDS


@pytest.mark.parametrize("name", ORGANISER_COMMANDS)
async def test_a_member_without_manage_server_is_refused_every_organiser_command(
    discord_bot: DiscordBot, db: Database, name: str
) -> None:
    await new_club(discord_bot)
    await register(discord_bot, ("Nagy Péter", "5k"))
    cmd = next(c for c in public_commands() if c.name == name)
    values = {
        p.name.lower() if isinstance(p, Param) else p.key: fill(p)
        for p in options_of(cmd)
        if isinstance(p, Param) and p.required and p.kind != "file"
    }
    before = await log_size(db)
    (call,) = await discord_bot.slash(name, D_PLAYER, **values)
    assert ephemeral(call)
    assert f"/{name} is for the organisers" in content(call)
    assert await log_size(db) == before


async def test_a_dm_is_its_own_private_chat(discord_bot: DiscordBot) -> None:
    (call,) = await discord_bot.slash(
        "club", D_PLAYER, guild_id=None, action="new", value="Home Club mgsz"
    )
    assert "created" in content(call)


async def test_a_private_reply_is_ephemeral(discord_bot: DiscordBot) -> None:
    await new_club(discord_bot)
    (call,) = await discord_bot.slash("club", D_ADMIN, action="code")
    assert ephemeral(call)
    assert "Join code" in content(call)


# --- buttons -------------------------------------------------------------------------------


async def test_a_button_runs_its_command_as_the_presser(
    discord_bot: DiscordBot, db: Database
) -> None:
    await new_club(discord_bot)
    await register(discord_bot, ("Nagy Péter", "5k"))
    await discord_bot.slash("link", D_PLAYER, name="Nagy Péter")
    (question,) = await discord_bot.slash("link", D_OTHER, name="Nagy Péter")
    (row,) = message_of(question)["components"]
    (button,) = row["components"]
    assert button["label"] == "Confirm (organisers)"
    custom_id = button["custom_id"]
    assert len(custom_id) <= 100
    before = await log_size(db)
    (refused,) = await discord_bot.press(custom_id, D_OTHER)
    assert refused.body["type"] == CHANNEL_MESSAGE
    assert ephemeral(refused)
    assert "organiser" in content(refused)
    assert await log_size(db) == before
    (done,) = await discord_bot.press(custom_id, D_ADMIN)
    assert done.body["type"] == UPDATE_MESSAGE  # the question is replaced by the answer
    assert "now linked" in content(done)
    club = await storage.club_for_chat(db, "discord", str(fd.GUILD_ID))
    assert club is not None
    linked = await storage.player_for_account(db, club, "discord", D_OTHER["user"]["id"])
    assert linked is not None and linked.name == "Nagy Péter"


async def test_an_unknown_button_is_answered(discord_bot: DiscordBot) -> None:
    (call,) = await discord_bot.press("hoshi:k:gone", D_PLAYER)
    assert ephemeral(call)
    assert "no longer active" in content(call)


# --- files, pastes, pictures, long replies --------------------------------------------------


async def test_a_results_table_as_an_attachment(discord_bot: DiscordBot, db: Database) -> None:
    await new_club(discord_bot)
    attachment = discord_bot.fake.attachment("kis_kupa.h9", (DATA / "kis_kupa.h9").read_bytes())
    (call,) = await discord_bot.slash(
        "tournament",
        D_ADMIN,
        resolved={"attachments": {attachment["id"]: attachment}},
        action="import",
        args="committee",
        file=attachment["id"],
    )
    assert "Kis Kupa" in content(call), content(call)
    club = await storage.club_for_chat(db, "discord", str(fd.GUILD_ID))
    assert club is not None
    assert len(await storage.tournaments(db, club)) == 1


async def test_a_results_table_pasted_into_a_form(discord_bot: DiscordBot, db: Database) -> None:
    await new_club(discord_bot)
    (refused,) = await discord_bot.slash("tournament", D_ADMIN, action="import", args="committee")
    assert ephemeral(refused)
    (row,) = message_of(refused)["components"]
    (button,) = row["components"]
    assert button["label"] == "Paste the table"
    (opened,) = await discord_bot.press(button["custom_id"], D_ADMIN, refused.message_id)
    assert opened.body["type"] == MODAL
    form = opened.body["data"]
    (label,) = form["components"]
    text_input = label["component"]
    pasted = (DATA / "formats_example.h9").read_text(encoding="utf-8")
    submit = {
        "custom_id": form["custom_id"],
        "components": [
            {
                "type": label["type"],
                "id": 1,
                "component": {
                    "type": text_input["type"],
                    "id": 2,
                    "custom_id": text_input["custom_id"],
                    "value": pasted,
                },
            }
        ],
    }
    payload = discord_bot.fake.interaction(5, submit, D_ADMIN)
    discord_bot.fake.dispatch(discord_bot.adapter.client, payload)
    (call,) = await discord_bot.fake.respond_to(payload)
    assert "Budapest Spring Cup 2026" in content(call), content(call)
    club = await storage.club_for_chat(db, "discord", str(fd.GUILD_ID))
    assert club is not None
    assert len(await storage.tournaments(db, club)) == 1


async def test_a_picture_is_an_attachment(discord_bot: DiscordBot) -> None:
    await new_club(discord_bot)
    await register(discord_bot, ("Nagy Péter", "5k"), ("Kovács Anna", "6k"))
    await discord_bot.slash(
        "result", D_ADMIN, black="Nagy Péter", white="Kovács Anna", result="B+"
    )
    (call,) = await discord_bot.slash("chart", D_PLAYER, name="Nagy Péter")
    ((name, data),) = call.files.values()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    data_json = message_of(call)
    attachments = [a["filename"] for a in data_json.get("attachments", [])]
    assert attachments == [name]
    assert "Nagy Péter" in content(call)


async def test_a_long_reply_is_split_within_the_limit(
    discord_bot: DiscordBot, db: Database
) -> None:
    await new_club(discord_bot)
    club = await storage.club_for_chat(db, "discord", str(fd.GUILD_ID))
    assert club is not None
    for i in range(100):  # ~4,600 characters: too long for an embed, fits in four messages
        await storage.register_player(
            db, club, f"Player Number {i:03d} Longname", Rank.kyu(10), date=NOW.date(), actor="t"
        )
    messages = await discord_bot.slash("top", D_PLAYER, n=100)
    assert len(messages) >= 2
    assert messages[0].body["type"] == CHANNEL_MESSAGE
    assert all(m.path.startswith("/webhooks/") for m in messages[1:])  # follow-ups
    assert all(len(message_of(m).get("content") or "") <= CONTENT_LIMIT for m in messages)
    text = "\n".join(content(m) for m in messages)
    assert all(f"Player Number {i:03d} Longname" in text for i in range(100))
    assert all(content(m).count("```") % 2 == 0 for m in messages)  # code blocks closed


# --- rendering and argument text (unit) ----------------------------------------------------


def test_a_titled_reply_is_an_embed_with_tables_in_code_blocks() -> None:
    reply = Reply(
        blocks=(Text("Top *5*", title=True), Table(("Name", "Elo"), (("Kis_K", "1500"),)))
    )
    (out,) = render(reply)
    assert out.embed is not None and out.content is None
    assert out.embed.title == "Top *5*"
    assert out.embed.description == "```\nName   Elo\nKis_K  1500\n```"


def test_plain_text_is_escaped_and_errors_are_never_embeds() -> None:
    (out,) = render(Reply(blocks=(Text("No *such* player_x", title=True),), error=True))
    assert out.embed is None
    assert out.content == "**No \\*such\\* player\\_x**"


def test_a_very_long_reply_becomes_a_file() -> None:
    rows = tuple((f"p{i}", "x" * 50) for i in range(400))
    (out,) = render(Reply(blocks=(Text("List"), Table(("a", "b"), rows))))
    assert out.content is not None and len(out.content) <= CONTENT_LIMIT
    ((name, data),) = out.files
    assert name.endswith(".txt") and b"p399" in data


def test_a_picture_without_a_title_is_attached() -> None:
    reply = Reply(blocks=(Text("chart"),), picture=Picture(b"png", "a b.png", "cap"))
    (out,) = render(reply)
    assert out.files == [("a_b.png", b"png")]
    assert out.content == "chart\n\ncap"


@pytest.mark.parametrize(
    ("params", "values", "expected"),
    [
        ((Param("name", "player", ""),), ["Nagy Péter"], '"Nagy Péter"'),
        ((Param("name", "player", ""),), ["Kovács"], "Kovács"),
        (
            (
                Param("a", "player", ""),
                Param("b", "player", ""),
                Option("r", "int", ""),
            ),
            ["Nagy Péter", "Kis", 1],
            '"Nagy Péter" Kis r=1',
        ),
        ((Param("time", "text", ""),), ["60m 3x20s even"], "60m 3x20s even"),
        ((Option("reason", "text", ""),), ["entered twice"], 'reason="entered twice"'),
        ((Param("n", "int", "", False),), [None], ""),
        ((Param("f", "file", "", False), Param("x", "text", "")), [object(), "import"], "import"),
    ],
    ids=[
        "spaced-name",
        "one-word",
        "pair-and-option",
        "free-text",
        "quoted-option",
        "absent",
        "file",
    ],
)
def test_argument_text(
    params: tuple[Param | Option, ...], values: list[Any], expected: str
) -> None:
    assert argument_text(params, values) == expected


def test_option_names_are_valid_and_unique() -> None:
    taken: set[str] = set()
    assert option_name("C", taken) == "c"
    assert option_name("c", taken) == "c_2"
    assert option_name("game id", taken) == "game_id"
    assert option_name("!!!", taken) == "value"


# --- working state, failures, sync ---------------------------------------------------------


async def test_a_slow_command_is_deferred_then_followed_up(
    discord_bot: DiscordBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.adapters.discord.DEFER_AFTER_S", 0.01)
    core = discord_bot.adapter.core
    answer = core.handle

    async def slow(inv: Any) -> Any:  # finishes only once Discord was told to wait
        await discord_bot.fake.wait_for(
            lambda calls: any(
                isinstance(c.body, dict) and c.body.get("type") == DEFERRED for c in calls
            )
        )
        return await answer(inv)

    monkeypatch.setattr(core, "handle", slow)
    deferral, followup = await discord_bot.slash("help", D_PLAYER)
    assert deferral.body["type"] == DEFERRED
    assert followup.path.startswith(f"/webhooks/{fd.APP_ID}/")
    assert "hoshi" in content(followup)


async def test_a_failure_is_reported_with_a_reference(
    discord_bot: DiscordBot, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(inv: Any) -> Any:
        raise RuntimeError("the disk is on fire")

    monkeypatch.setattr(discord_bot.adapter.core, "handle", broken)
    (call,) = await discord_bot.slash("help", D_PLAYER)
    assert ephemeral(call)
    assert "Something went wrong (ref " in content(call)
    assert "fire" not in content(call)
    assert any("incident" in r.getMessage() for r in caplog.records)


async def test_without_guilds_the_commands_are_synced_globally(core: Any) -> None:
    from bot.adapters.discord import DiscordAdapter
    from bot.config import DiscordConfig

    async with fd.FakeDiscord() as fake:
        adapter = DiscordAdapter(core, fd.TOKEN, DiscordConfig())
        await adapter.client.login(fd.TOKEN)
        await adapter.client.close()
    (sync,) = [c for c in fake.calls if c.method == "PUT"]
    assert sync.path == f"/applications/{fd.APP_ID}/commands"
    assert len(sync.body) == len(public_commands())


# --- one spec: the console's options are Discord's options (issue 12, part 3) ---------------

PROBE = "zzq"


async def console_options(chat: FakeChat, cmd: Any) -> set[str]:
    """The ``key=`` options the console parser accepts for ``cmd``, read from its refusal of an
    unknown one (each action of a command with actions is asked in turn)."""
    actions = next((p.choices for p in cmd.params if p.name == "action"), ())
    accepted: set[str] = set()
    for action in actions or ("",):
        line = f"/{cmd.name} {action} {PROBE}=1".replace("  ", " ")
        said = await chat.refused(line, as_=ADMIN)
        if f"{PROBE}=" not in said.text:  # e.g. /tournament import reads the table first
            said = await chat.refused(line, as_=ADMIN, attachment=b";\n", attachment_name="x.h9")
        refusal = said.text.partition("\n")[0]
        assert f"{PROBE}=" in refusal and "option" in refusal, (line, said.text)
        takes = said.text.partition("it takes ")[2].partition("\n")[0]
        accepted |= set(re.findall(r"\b([a-z_]+)=", takes))
    return accepted


async def test_discord_offers_every_option_the_console_accepts(
    discord_bot: DiscordBot, tmp_path: Path
) -> None:
    (tmp_path / "console").mkdir()
    chat = await FakeChat.open(tmp_path / "console")
    try:
        for cmd in public_commands():
            slash = discord_bot.adapter.tree.get_command(cmd.name)
            assert isinstance(slash, app_commands.Command), cmd.name
            offered = {p.display_name for p in slash.parameters}
            positional = {p.name.lower() for p in cmd.params}
            positional |= {f.name for f in cmd.flags if f.menu}  # yes/no: words on the console
            console = await console_options(chat, cmd)
            assert offered - positional == console, cmd.name
            assert not positional & console, cmd.name  # a value is given one way only
    finally:
        await chat.close()


async def test_discord_result_sets_time_and_board(discord_bot: DiscordBot) -> None:
    (call,) = await discord_bot.slash("club", D_ADMIN, action="new", value="Test Club tensuusei")
    assert "/club set language en" in content(call), content(call)
    await discord_bot.slash("club", D_ADMIN, action="set", value="language en")
    await register(discord_bot, ("Nagy Péter", "5k"), ("Kovács Anna", "6k"))
    (call,) = await discord_bot.slash(
        "result",
        D_ADMIN,
        black="Nagy Péter",
        white="Kovács Anna",
        result="B+",
        board=13,
        time="60m 3x30s",
    )
    assert "Nagy Péter" in content(call), content(call)
    db: Database = discord_bot.adapter.core.db
    (club,) = await storage.clubs(db)
    (row,) = await storage.club_games(db, club)
    assert row.game.board == 13
    assert row.game.time is not None


async def test_a_start_without_voice_logs_no_voice_warnings(
    core: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """discord.py warns at a client's start that PyNaCl and davey are missing ("voice will NOT
    be supported"); hoshi has no voice, so its operator sees neither (issue 24)."""
    import discord

    from bot.adapters.discord import DiscordAdapter
    from bot.config import DiscordConfig

    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)  # as in a fresh process
    monkeypatch.setattr(discord.VoiceClient, "warn_dave", True)
    with caplog.at_level("DEBUG", logger="discord"):
        adapter = DiscordAdapter(core, fd.TOKEN, DiscordConfig())
    assert adapter.client.intents.message_content is False  # no privileged intent asked
    assert [r.getMessage() for r in caplog.records if "voice" in r.getMessage().lower()] == []
