"""`hint` at the `play` prompt (issue 21 item 4): the strongest AI's choice and win chance."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

import bloodforge
from bloodforge.agents.hint import compute_hint
from bloodforge.cli import play
from bloodforge.cli.main import app
from bloodforge.core.rng import mix_seed

runner = CliRunner()


def test_hint_at_the_prompt_prints_the_ais_choice_and_win_chance(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(play, "HINT_ITERATIONS", 10)  # small: the machine is shared
    # seat 2 (index 1) is the human and acts first in Blood Stone at this seed
    result = runner.invoke(app, ["play", "witch", "--seat", "1=random", "--seat", "2=human", "--seed", "2"],
                           input="hint\nhint\nq\n")
    assert result.exit_code == 1, result.output
    lines = [line for line in result.output.splitlines() if "The AI would play: " in line]
    assert len(lines) == 2, result.output
    assert lines[0] == lines[1], "asking again at the same position gives the same hint"
    assert re.search(r"\(estimated win chance \d{1,3}%\)", lines[0])
    state = bloodforge.load_game("witch", seed=2, players=2).new_initial_state()
    assert state.actors() == [1]
    expected = compute_hint(state, 1, iterations=10, seed=mix_seed(2, "hint", 1, len(state.history)))
    assert expected.sentence() in lines[0]
    assert str(expected.action) in result.output


def test_help_lists_hint() -> None:
    result = runner.invoke(app, ["play", "witch", "--seat", "2=random", "--seed", "2"], input="help\nq\n")
    assert "hint" in result.output
    assert "estimated win chance" in result.output
