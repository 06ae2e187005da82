"""storage.errors: messages users see."""

from __future__ import annotations

from storage.errors import BatchError, Refused, StorageError


def test_a_batch_error_names_every_bad_item() -> None:
    error = BatchError([(2, "there is no player 404"), (5, "komi must be a half point")])
    assert str(error) == (
        "nothing was recorded — #2: there is no player 404; #5: komi must be a half point"
    )
    assert error.problems == ((2, "there is no player 404"), (5, "komi must be a half point"))
    assert isinstance(error, Refused) and isinstance(error, StorageError)
