"""`rummisolve rules`: the rules a profile or a board puts in force, with their sources."""

from __future__ import annotations

import json
import os
from typing import Any

import click

from ..board import read_board_rules
from ..errors import BoardError, Problem
from ..rules import (
    OPTIONS,
    PROFILE_NAMES,
    PROFILES,
    Rules,
)
from .options import (
    core_errors,
    rule_options,
    rule_overrides,
)


@click.command("rules")
@click.argument("name", metavar="[NAME|BOARD]", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@rule_options
@core_errors
def rules_command(name: str | None, as_json: bool, **options: Any) -> None:
    """The rules a profile (or a board file) puts in force, each with where it comes from;
    without NAME, every profile.

    Example: rummisolve rules hebrew
    """
    overrides = rule_overrides(options)
    if name is None and not overrides.given():
        profiles = [PROFILES[n].rules for n in PROFILE_NAMES]
        if as_json:
            click.echo(json.dumps({"profiles": {r.profile: rules_json(r) for r in profiles}}))
        else:
            click.echo("\n\n".join(rules_text(r) for r in profiles))
        return
    if name is None:
        chosen = overrides.apply(Rules())
    elif name.lower() in PROFILES:
        chosen = overrides.apply(PROFILES[name.lower()].rules)
    elif name.isidentifier() and not os.path.lexists(name):  # a profile mistyped: `okey`
        known = ", ".join(PROFILE_NAMES)
        raise BoardError([Problem(name, 0, f"neither a profile ({known}) nor a board file")])
    else:
        chosen = read_board_rules(name, overrides)
    click.echo(json.dumps(rules_json(chosen)) if as_json else rules_text(chosen))


def rules_json(rules: Rules) -> dict[str, Any]:
    """`rules --json`: the profile, what it is, every option's value and its source."""
    profile = PROFILES[rules.profile]
    return {
        "profile": rules.profile,
        "summary": profile.summary,
        "rules": rules.as_json(),
        "sources": {o.field: rules.source_of(o.field) for o in OPTIONS},
        "words": rules.words(full=True),
    }


def rules_text(rules: Rules) -> str:
    """`rules`: the profile and what it is, then each option, its value and its source."""
    profile = PROFILES[rules.profile]
    changed = rules.differences()
    title = f"{rules.profile}: {profile.summary}"
    if changed:
        title += f" (changed here: {' '.join(changed)})"
    values = {o.field: o.word_for(rules) for o in OPTIONS}
    width = max(len(v) for v in values.values())
    lines = [title]
    lines.extend(f"  {values[o.field]:<{width}}  {rules.source_of(o.field)}" for o in OPTIONS)
    return "\n".join(lines)
