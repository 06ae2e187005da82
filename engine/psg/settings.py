"""The club's PSG settings (``/club set psg.…``): each a field of :class:`PsgParams`, whose
defaults are the regulations' values (rules.md §4). The even-game komi is the club's own
setting (``/club komi``)."""

from __future__ import annotations

from engine import settings as kinds
from engine.psg.state import PsgParams
from engine.ranks import Rank
from engine.settings import Setting
from engine.text import Msg

_WEAKEST, _STRONGEST = Rank.kyu(30), Rank.dan(9)


def _rank(key: str, summary: str, field: str, example: str, rule: str) -> Setting:
    return kinds.rank(
        key,
        summary,
        params=PsgParams,
        field=field,
        low=_WEAKEST,
        high=_STRONGEST,
        example=example,
        rule=rule,
    )


SETTINGS: tuple[Setting, ...] = (
    kinds.whole(
        "psg.report_days",
        Msg("days a result may take to be reported before it is flagged"),
        params=PsgParams,
        field="report_days",
        low=1,
        high=365,
        example="3",
        rule=Msg("PSG regulations §7: results within 3 days"),
    ),
    kinds.whole(
        "psg.inactive_months",
        Msg("months without a ranked game after which a player is inactive and results reset"),
        params=PsgParams,
        field="inactive_months",
        low=1,
        high=120,
        example="13",
        rule=Msg("PSG regulations §3(5), §18(4): 13 months"),
    ),
    kinds.whole(
        "psg.max_arranged_per_pair",
        Msg("arranged games one pair may count at the same ranks"),
        params=PsgParams,
        field="max_arranged_per_pair",
        low=0,
        high=100,
        example="2",
        rule=Msg("PSG regulations §8(2): two games"),
    ),
    _rank(
        "psg.auto_promotion_limit",
        Msg("the strongest rank reached on the norm alone"),
        "auto_promotion_limit",
        "6k",
        Msg("PSG regulations §20(1): up to 6 kyu"),
    ),
    _rank(
        "psg.teacher_limit",
        Msg("the strongest rank a teacher may promote to"),
        "teacher_limit",
        "6k",
        Msg("PSG regulations §22(1): up to 6 kyu"),
    ),
    _rank(
        "psg.hold_limit",
        Msg("the strongest rank a teacher may hold a promotion at"),
        "hold_limit",
        "7k",
        Msg("PSG regulations §21: up to 7 kyu"),
    ),
    _rank(
        "psg.new_participant_limit",
        Msg("the strongest rank a new participant may enter with unverified"),
        "new_participant_limit",
        "6k",
        Msg("PSG regulations §11(3): 6 kyu"),
    ),
    _rank(
        "psg.registration_limit",
        Msg("the weakest rank the ranking registers"),
        "registration_limit",
        "30k",
        Msg("PSG regulations §15(1): 30 kyu"),
    ),
    kinds.whole(
        "psg.norm_egf_margin",
        Msg("GoR points below the rank's model a promotion's EGF rating may lie"),
        params=PsgParams,
        field="norm_egf_margin",
        low=0,
        high=1000,
        example="50",
        rule=Msg("PSG regulations §20(2)(a): 50 points"),
    ),
    kinds.whole(
        "psg.verification_margin",
        Msg("GoR points below the rank's model that start a verification"),
        params=PsgParams,
        field="verification_margin",
        low=0,
        high=1000,
        example="100",
        rule=Msg("PSG regulations §23(1): 100 points"),
    ),
    kinds.whole(
        "psg.verification_months",
        Msg("months an EGF rating must stay low before the rank is lowered"),
        params=PsgParams,
        field="verification_months",
        low=1,
        high=36,
        example="3",
        rule=Msg("PSG regulations §23(1): three months"),
    ),
    kinds.switch(
        "psg.unknown_time_counts",
        Msg("a game without a recorded time control counts"),
        params=PsgParams,
        field="unknown_time_counts",
        rule=Msg("hoshi's choice: the PSG regulations are silent on games without a time control"),
    ),
    kinds.boards(
        "psg.boards",
        Msg("board sizes whose games are ranked"),
        params=PsgParams,
        field="boards",
        example="19",
        rule=Msg("hoshi's choice: the points table is meant for 19×19 games"),
    ),
    kinds.switch(
        "psg.suspension_ends_on_new_egf",
        Msg("a suspended verification resumes with the next EGF rating"),
        params=PsgParams,
        field="suspension_ends_on_new_egf",
        rule=Msg("PSG regulations §23(4): until a new EGF rating is received"),
    ),
)
"""Every PSG setting a club may change; defaults from PsgParams (written once)."""
