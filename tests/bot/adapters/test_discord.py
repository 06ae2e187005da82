"""The Discord adapter through the real discord.py client and ``app_commands.CommandTree``.

Interactions are injected as gateway events; discord.py converts the options, runs the
callbacks and answers over HTTP to the fake REST server (tests/fakes/discord.py), which records
every response.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

import pytest
from discord import app_commands
from hypothesis import given
from hypothesis import strategies as st

import storage
from bot.adapters.discord import (
    CONTENT_LIMIT,
    DESCRIPTION_LIMIT,
    Form,
    _required,
    _summary,
    argument_text,
    forms_of,
    grouped,
    option_name,
    render,
)
from bot.core import app
from bot.core.command_table import COMMANDS, public_commands
from bot.core.commands import ORGANISER, CommandSpec, Flag, Option, Param, Upload
from bot.core.invocation import Invocation
from bot.core.parse import Reader, fill_arguments, read_arguments, render_arguments
from bot.core.replies import Picture, Reply, Table, Text
from bot.i18n import using
from engine.ranks import Rank
from storage.db import Database
from storage.game_files import file_of_game
from tests.bot.adapters.conftest import D_ADMIN, D_OTHER, D_PLAYER, NOW, DiscordBot, log_size
from tests.bot.core.fakechat import ADMIN, FakeChat
from tests.bot.core.test_typed_args import FakeNames
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
    "word": 3,
    "day": 3,
    "clock": 3,
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
    (call,) = await bot.slash("club new", D_ADMIN, name="Test Club", system="mgsz")
    assert "Létrejött a klub" in content(call), content(call)  # in its rulebook's language
    (call,) = await bot.slash("club set", D_ADMIN, key="language", value="en")
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


def synced_forms(sync: fd.Call, cmd: CommandSpec) -> list[tuple[Form, dict[str, Any]]]:
    """Each slash form of ``cmd`` with what was synced for it: the command itself, or each
    subcommand of its group (an option of type 1 with its own options)."""
    (synced,) = [c for c in sync.body if c["name"] == cmd.name]
    forms = forms_of(cmd)
    if not grouped(cmd):
        return [(forms[0], synced)]
    subs = {o["name"]: o for o in synced.get("options", [])}
    assert all(o["type"] == fd.SUB_COMMAND for o in subs.values()), cmd.name
    assert list(subs) == [f.action for f in forms], cmd.name  # one per action, in order
    return [(f, subs[f.action or ""]) for f in forms]


@pytest.mark.parametrize("name", [c.name for c in public_commands()])
async def test_options_are_typed_from_the_table(discord_bot: DiscordBot, name: str) -> None:
    cmd = next(c for c in public_commands() if c.name == name)
    (sync,) = [c for c in discord_bot.fake.calls if c.method == "PUT"]
    for form, synced in synced_forms(sync, cmd):
        options = {o["name"]: o for o in synced.get("options", [])}
        assert len(options) == len(form.options), form.label
        for param in form.options:
            option = options[param.key if isinstance(param, Option) else param.name.lower()]
            assert option["type"] == OPTION_TYPES[param.kind], (form.label, param)
            required = isinstance(param, Param) and param.required and param.kind != "file"
            assert option["required"] == required, (form.label, param)
            if param.kind == "player":
                assert option.get("autocomplete") is True
            if not isinstance(param, Flag) and param.choices and param.kind != "int":
                assert [c["value"] for c in option["choices"]] == list(param.choices)
        required = [o["required"] for o in synced.get("options", [])]
        assert required == sorted(required, reverse=True)  # Discord: required options first


NAME = re.compile(r"[-_\w]{1,32}")


def test_commands_with_actions_are_groups() -> None:
    grouped_ = {c.name for c in public_commands() if grouped(c)}
    assert {"club", "tournament"} <= grouped_
    assert all(c.actions for c in public_commands() if c.name in grouped_)


@pytest.mark.parametrize("name", [c.name for c in public_commands()])
async def test_every_command_keeps_discords_limits(discord_bot: DiscordBot, name: str) -> None:
    """At most 25 subcommands and 25 options each, names of 1–32 lower-case characters,
    descriptions (and their translations) of 1–100 characters, at most 25 choices."""
    cmd = next(c for c in public_commands() if c.name == name)
    (sync,) = [c for c in discord_bot.fake.calls if c.method == "PUT"]
    (synced,) = [c for c in sync.body if c["name"] == name]
    forms = synced_forms(sync, cmd)
    assert len(forms) <= 25

    def check(item: dict[str, Any]) -> None:
        assert NAME.fullmatch(item["name"]) and item["name"] == item["name"].lower(), item
        texts = [item["description"], *item.get("description_localizations", {}).values()]
        assert all(1 <= len(t) <= 100 for t in texts), (item["name"], texts)
        assert len(item.get("choices") or []) <= 25
        for choice in item.get("choices") or []:
            assert 1 <= len(choice["name"]) <= 100

    check(synced)
    for _form, sub in forms:
        check(sub)
        options = sub.get("options", [])
        assert len(options) <= 25, sub["name"]
        assert len({o["name"] for o in options}) == len(options)
        for option in options:
            check(option)


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


ORGANISER_FORMS = [
    (f.cmd.name, f.action) for c in public_commands() if c.access == ORGANISER for f in forms_of(c)
]


@pytest.mark.parametrize(
    ("name", "action"), ORGANISER_FORMS, ids=[f"{n}-{a}" if a else n for n, a in ORGANISER_FORMS]
)
async def test_a_member_without_manage_server_is_refused_every_organiser_command(
    discord_bot: DiscordBot, db: Database, name: str, action: str | None
) -> None:
    """Every organiser command, and every action of one (``/club komi``), is refused to a
    member as before, privately, and changes nothing."""
    await new_club(discord_bot)
    await register(discord_bot, ("Nagy Péter", "5k"))
    cmd = next(c for c in public_commands() if c.name == name)
    form = next(f for f in forms_of(cmd) if f.action == action)
    values = {
        p.name.lower(): fill(p)
        for p in form.options
        if isinstance(p, Param) and p.required and p.kind != "file"
    }
    before = await log_size(db)
    (call,) = await discord_bot.slash(f"{name} {action or ''}".strip(), D_PLAYER, **values)
    assert ephemeral(call)
    assert f"/{name} is for the organisers" in content(call)
    assert await log_size(db) == before


async def test_a_dm_is_its_own_private_chat(discord_bot: DiscordBot) -> None:
    (call,) = await discord_bot.slash(
        "club new", D_PLAYER, guild_id=None, name="Home Club", system="mgsz"
    )
    assert "created" in content(call)


async def test_a_private_reply_is_ephemeral(discord_bot: DiscordBot) -> None:
    await new_club(discord_bot)
    (call,) = await discord_bot.slash("club code", D_ADMIN)
    assert ephemeral(call)
    assert "Join code" in content(call)


# --- buttons -------------------------------------------------------------------------------


async def test_a_button_runs_its_command_as_the_presser(
    discord_bot: DiscordBot, db: Database
) -> None:
    await new_club(discord_bot)
    await register(discord_bot, ("Nagy Péter", "5k"))
    # a member links themselves: an organiser confirms it with the reply's button
    (question,) = await discord_bot.slash("link", D_PLAYER, name="Nagy Péter")
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
    linked = await storage.player_for_account(db, club, "discord", D_PLAYER["user"]["id"])
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
        "tournament import",
        D_ADMIN,
        resolved={"attachments": {attachment["id"]: attachment}},
        committee=True,
        file=attachment["id"],
    )
    assert "Kis Kupa" in content(call), content(call)
    club = await storage.club_for_chat(db, "discord", str(fd.GUILD_ID))
    assert club is not None
    assert len(await storage.tournaments(db, club)) == 1


SGF = "(;GM[1]FF[4]SZ[19]KM[6.5]PB[Nagy Péter]PW[Kovács Anna]DT[2026-03-01]RE[B+R])".encode()


async def test_an_sgf_attached_to_sgf_is_shown_and_recorded_with_the_button(
    discord_bot: DiscordBot, db: Database
) -> None:
    await new_club(discord_bot)
    await register(discord_bot, ("Nagy Péter", "5k"), ("Kovács Anna", "6k"))
    attachment = discord_bot.fake.attachment("game.sgf", SGF)
    (preview,) = await discord_bot.slash(
        "sgf",
        D_ADMIN,
        resolved={"attachments": {attachment["id"]: attachment}},
        file=attachment["id"],
    )
    assert "Record this game?" in content(preview) and "Black: Nagy Péter" in content(preview)
    (row,) = message_of(preview)["components"]
    (button,) = row["components"]
    assert button["label"] == "Record"
    (done,) = await discord_bot.press(button["custom_id"], D_ADMIN)
    assert "recorded" in content(done), content(done)
    club = await storage.club_for_chat(db, "discord", str(fd.GUILD_ID))
    assert club is not None
    (game,) = await storage.club_games(db, club)
    kept = await file_of_game(db, club, game.id)
    assert kept is not None and kept.data == SGF and kept.name == "game.sgf"


def test_results_description_sends_an_sgf_to_sgf() -> None:
    """/result's names are required, so its Discord form cannot take the file: its
    description says which command does."""
    with using("en"):
        said = _summary(COMMANDS["result"])
    assert said.startswith("Record a single game.") and said.endswith("With an .sgf file: /sgf.")
    assert len(said) <= DESCRIPTION_LIMIT
    assert any(p.kind == "file" for p in COMMANDS["sgf"].params)


async def test_a_results_table_pasted_into_a_form(discord_bot: DiscordBot, db: Database) -> None:
    await new_club(discord_bot)
    (refused,) = await discord_bot.slash("tournament import", D_ADMIN, committee=True)
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


async def console_options(chat: FakeChat, cmd: Any, action: str | None) -> set[str]:
    """The ``key=`` options the console parser accepts for ``cmd`` (or one of its actions),
    read from its refusal of an unknown one."""
    line = f"/{cmd.name} {action or ''} {PROBE}=1".replace("  ", " ")
    said = await chat.refused(line, as_=ADMIN)
    if f"{PROBE}=" not in said.text:  # e.g. /tournament import reads the table first
        said = await chat.refused(line, as_=ADMIN, attachment=b";\n", attachment_name="x.h9")
    refusal = said.text.partition("\n")[0]
    assert f"{PROBE}=" in refusal and "option" in refusal, (line, said.text)
    takes = said.text.partition("it takes ")[2].partition("\n")[0]
    return set(re.findall(r"\b([a-z_]+)=", takes))


async def test_discord_offers_every_option_the_console_accepts(
    discord_bot: DiscordBot, tmp_path: Path
) -> None:
    """Each slash command, and each subcommand of a group (one per action), offers exactly
    the ``key=`` options the console accepts for it, besides its params and flags."""
    (tmp_path / "console").mkdir()
    chat = await FakeChat.open(tmp_path / "console")
    try:
        for cmd in public_commands():
            for form in forms_of(cmd):
                slash: Any = discord_bot.adapter.tree.get_command(cmd.name)
                if form.action is not None:
                    assert isinstance(slash, app_commands.Group), cmd.name
                    slash = slash.get_command(form.action)
                assert isinstance(slash, app_commands.Command), form.label
                offered = {p.display_name for p in slash.parameters}
                positional = {p.name.lower() for p in form.options if isinstance(p, Param)}
                positional |= {p.name for p in form.options if isinstance(p, Flag)}
                console = await console_options(chat, cmd, form.action)
                assert offered - positional == console, form.label
                assert not positional & console, form.label  # a value is given one way only
    finally:
        await chat.close()


async def test_discord_result_sets_time_and_board(discord_bot: DiscordBot) -> None:
    (call,) = await discord_bot.slash("club new", D_ADMIN, name="Test Club", system="tensuusei")
    assert "/club set language en" in content(call), content(call)
    await discord_bot.slash("club set", D_ADMIN, key="language", value="en")
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


# --- typed values, not text: each action's subcommand fills its dataclass (issue 24) --------


@pytest.fixture
def handed(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Invocation, object]]:
    """Every invocation the core ran, with the arguments dataclass its handler was given."""
    seen: list[tuple[Invocation, object]] = []
    given = app.arguments

    async def recorded(ctx: Any, cmd: CommandSpec) -> object:
        args = await given(ctx, cmd)
        seen.append((ctx.inv, args))
        return args

    monkeypatch.setattr(app, "arguments", recorded)
    return seen


async def the_line(name: str, line: str, upload: Upload | None = None) -> object:
    """What the console and Telegram read the typed line ``/name line`` as."""
    return await read_arguments(COMMANDS[name], line, Reader(NOW.date(), attachment=upload))


async def test_club_komi_reaches_the_handler_typed(
    discord_bot: DiscordBot, handed: list[tuple[Invocation, object]]
) -> None:
    await new_club(discord_bot)
    (call,) = await discord_bot.slash("club komi", D_ADMIN, komi="6.5")
    assert not ephemeral(call), content(call)
    inv, args = handed[-1]
    assert inv.values == (("komi", "6.5"),) and inv.action == "komi"  # values, not a line
    assert args == await the_line("club", "komi 6.5")


async def test_tournament_new_reaches_the_handler_typed(
    discord_bot: DiscordBot, handed: list[tuple[Invocation, object]]
) -> None:
    await new_club(discord_bot)
    values = {
        "name": "Spring Cup 2026",  # a name that ends in a number, and a date left to start=
        "start": "2026-02-11",
        "end": "2026-02-12",
        "rounds": 5,
        "time": "60m 3x30s",
        "c": 12,
        "even": True,
    }
    (call,) = await discord_bot.slash("tournament new", D_ADMIN, **values)
    assert "Spring Cup 2026" in content(call), content(call)
    inv, args = handed[-1]
    assert inv.action == "new" and dict(inv.values or ()) == values
    line = (
        'new "Spring Cup 2026" start=2026-02-11 end=2026-02-12 rounds=5 time="60m 3x30s" c=12 even'
    )
    assert args == await the_line("tournament", line)
    assert args.rounds == 5 and args.even  # type: ignore[attr-defined]


async def test_tournament_import_with_an_attachment_reaches_the_handler_typed(
    discord_bot: DiscordBot, db: Database, handed: list[tuple[Invocation, object]]
) -> None:
    await new_club(discord_bot)
    data = (DATA / "kis_kupa.h9").read_bytes()
    attachment = discord_bot.fake.attachment("kis_kupa.h9", data)
    (call,) = await discord_bot.slash(
        "tournament import",
        D_ADMIN,
        resolved={"attachments": {attachment["id"]: attachment}},
        file=attachment["id"],
        committee=True,
        c=10,
    )
    assert "Kis Kupa" in content(call), content(call)
    inv, args = handed[-1]
    assert inv.action == "import" and inv.values is not None
    upload = Upload(data, "kis_kupa.h9")
    assert args == await the_line("tournament", "import committee c=10", upload)
    assert args.file == upload  # type: ignore[attr-defined]


async def test_a_pasted_table_goes_with_the_typed_values(
    discord_bot: DiscordBot, handed: list[tuple[Invocation, object]]
) -> None:
    """The "Paste the table" form sends the table as the file of the same typed action."""
    await new_club(discord_bot)
    (refused,) = await discord_bot.slash("tournament import", D_ADMIN, c=7, committee=True)
    (row,) = message_of(refused)["components"]
    (button,) = row["components"]
    (opened,) = await discord_bot.press(button["custom_id"], D_ADMIN, refused.message_id)
    form = opened.body["data"]
    assert form["title"] == "/tournament import: paste the table"
    (label,) = form["components"]
    pasted = (DATA / "formats_example.h9").read_text(encoding="utf-8")
    field = {
        "type": label["component"]["type"],
        "id": 2,
        "custom_id": label["component"]["custom_id"],
        "value": pasted,
    }
    submit = {
        "custom_id": form["custom_id"],
        "components": [{"type": label["type"], "id": 1, "component": field}],
    }
    payload = discord_bot.fake.interaction(5, submit, D_ADMIN)
    discord_bot.fake.dispatch(discord_bot.adapter.client, payload)
    (call,) = await discord_bot.fake.respond_to(payload)
    assert "Budapest Spring Cup 2026" in content(call), content(call)
    inv, args = handed[-1]
    assert inv.action == "import" and dict(inv.values or ()) == {"c": 7, "committee": True}
    upload = Upload(pasted.encode("utf-8"), "pasted.txt")
    assert args == await the_line("tournament", "import c=7 committee", upload)


WORDS = ("Spring", "Cup", "Kis", "Budapest", "Open", "Club", "Night", "Autumn")
PLAYERS = ("Nagy Péter", "Kovács Anna", "Kiss", "Tóth Ádám")


def typed_value(slot: Param | Option) -> st.SearchStrategy[object]:
    """A value as Discord sends it for ``slot`` (ints as ints, the rest as strings)."""
    words = st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map(" ".join)
    days = st.dates(dt.date(1990, 1, 1), NOW.date()).map(dt.date.isoformat)
    if slot.choices:
        return st.sampled_from(slot.choices)
    if slot.kind == "int":
        return st.integers(slot.low, slot.high)
    if slot.metavar == "YYYY-MM-DD" or slot.kind in ("date", "day"):
        return days
    return {
        "player": st.sampled_from(PLAYERS),
        "rank": st.sampled_from(["3k", "1d", "20k"]),
        "word": st.sampled_from(WORDS),
        "result": st.sampled_from(["B+", "W+R", "W+3.5", "jigo", "unplayed"]),
        "komi": st.sampled_from(["6.5", "7", "0.5", "0"]),
        "time": st.sampled_from(["60m 3x30s", "30m", "90m 30s"]),
        "clock": st.times().map(lambda t: f"{t.hour:02d}:{t.minute:02d}"),
    }.get(slot.kind, words)


@st.composite
def action_values(draw: st.DrawFn) -> tuple[Form, dict[str, object]]:
    """An action's subcommand with values for some of its options (all the required) that
    a line can say too: a positional argument only after those before it (``/club set``
    with a value but no key has no line)."""
    form = draw(st.sampled_from([f for c in public_commands() if grouped(c) for f in forms_of(c)]))
    values: dict[str, object] = {}
    gap = False  # an optional positional argument left out: none after it
    for slot in form.options:
        positional = isinstance(slot, Param)
        if isinstance(slot, Flag):
            values[slot.field] = draw(st.booleans())
        elif slot.kind == "file":
            continue
        elif _required(slot) or (not (positional and gap) and draw(st.booleans())):
            values[slot.field] = draw(typed_value(slot))
        elif positional:
            gap = True
    return form, values


@given(action_values())
async def test_every_actions_typed_values_fill_what_its_typed_line_reads(
    drawn: tuple[Form, dict[str, object]],
) -> None:
    """For every action of every group, the dataclass Discord's values fill
    (:func:`fill_arguments`) is the one the same values typed as a line read
    (:func:`read_arguments`): the two ways in never disagree."""
    form, values = drawn
    spec, action = form.cmd, form.action
    upload = Upload(b"; a table\n", "t.h9") if action == "import" else None
    reader = Reader(NOW.date(), FakeNames(*PLAYERS), upload)
    line = render_arguments(spec, values, action)
    filled = await fill_arguments(spec, values, reader, action)
    assert filled == await read_arguments(spec, line, reader), line
    layout = spec.layout(action)
    assert layout is not None and type(filled) is layout.arguments
