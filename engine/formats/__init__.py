"""Tournament and table files: text or bytes in, engine values out; no file I/O (formats.md).

* :mod:`engine.formats.h9` — EGD results files (``parse_h9``, ``write_h9``)
* :mod:`engine.formats.opengotha` — OpenGotha tournament XML (``parse_opengotha``)
* :mod:`engine.formats.csv_tables` — players, games and ratings tables, SGF-style results
* :mod:`engine.formats.tournament_file` — the format-independent :class:`TournamentFile` and
  :func:`to_engine`
* :mod:`engine.formats.names` — name keys for matching (``fold_name``, ``name_variants``)
"""

from __future__ import annotations

from engine.formats.csv_tables import (
    CsvGame,
    CsvPlayer,
    RatingRow,
    format_result,
    parse_games_csv,
    parse_players_csv,
    parse_ratings_csv,
    parse_result,
    parse_result_margin,
    write_games_csv,
    write_players_csv,
)
from engine.formats.h9 import parse_h9, write_h9
from engine.formats.names import fold_name, name_keys, name_variants
from engine.formats.opengotha import parse_opengotha
from engine.formats.tournament_file import (
    FileBye,
    FileGame,
    FilePlayer,
    TournamentFile,
    round_dates,
    to_engine,
)

__all__ = [
    "CsvGame",
    "CsvPlayer",
    "FileBye",
    "FileGame",
    "FilePlayer",
    "RatingRow",
    "TournamentFile",
    "fold_name",
    "format_result",
    "name_keys",
    "name_variants",
    "parse_games_csv",
    "parse_h9",
    "parse_opengotha",
    "parse_players_csv",
    "parse_ratings_csv",
    "parse_result",
    "parse_result_margin",
    "round_dates",
    "to_engine",
    "write_games_csv",
    "write_h9",
    "write_players_csv",
]
