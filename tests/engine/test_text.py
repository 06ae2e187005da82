"""engine.text: a Msg is its English text and keeps what a translation needs (issue 13)."""

from __future__ import annotations

import json
import pickle

from engine.text import Msg, plural


def test_msg_is_the_english_text_with_its_template_and_args() -> None:
    text = Msg("{player} moves to {rank}", player="Nagy", rank="3d")
    assert text == "Nagy moves to 3d"
    assert isinstance(text, str)
    assert text.template == "{player} moves to {rank}"
    assert dict(text.args) == {"player": "Nagy", "rank": "3d"}
    assert text.plural_template is None and text.n is None
    assert f"[{text}]" == "[Nagy moves to 3d]"
    assert json.dumps({"note": text}) == '{"note": "Nagy moves to 3d"}'


def test_msg_without_arguments_is_its_template() -> None:
    text = Msg("equal ranks: choose colours by nigiri")
    assert text == text.template == "equal ranks: choose colours by nigiri"
    assert dict(text.args) == {}


def test_a_mark_passed_as_a_value_stays_a_mark() -> None:
    text = Msg("{player} moves up to {rank}", player="{player:7}", rank="2k")
    assert text == "{player:7} moves up to 2k"
    assert text.args["player"] == "{player:7}"


def test_plural_chooses_the_english_form_by_n_and_sets_n() -> None:
    one = plural("{n} game", "{n} games", 1)
    many = plural("{n} game", "{n} games", 3)
    none = plural("{n} game", "{n} games", 0)
    assert (one, many, none) == ("1 game", "3 games", "0 games")
    assert one.template == many.template == "{n} game"
    assert one.plural_template == "{n} games" and many.n == 3 and one.args["n"] == 1


def test_plural_takes_other_arguments() -> None:
    text = plural("C = {c}, {n} game", "C = {c}, {n} games", 2, c=35)
    assert text == "C = 35, 2 games"
    assert text.args == {"n": 2, "c": 35}


def test_a_msg_survives_pickling_with_its_template() -> None:
    text = plural("{n} point to go", "{n} points to go", 5)
    back = pickle.loads(pickle.dumps(text))
    assert back == "5 points to go" and isinstance(back, Msg)
    assert back.template == "{n} point to go" and back.n == 5


def test_marks_name_games_and_players_for_the_bot() -> None:
    from engine.text import MARK, game_mark, marked_id, player_mark

    text = Msg("game {game}: {player} won", game=game_mark(12), player=player_mark(7))
    assert [(m[1], int(m[2])) for m in MARK.finditer(text)] == [("game", 12), ("player", 7)]
    assert marked_id(game_mark(12), "game") == 12
    assert marked_id(game_mark(12), "player") is None
    assert marked_id("game 12", "game") is None and marked_id(12, "game") is None
