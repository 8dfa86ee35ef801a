"""Every sentence a test quotes from a rule text (``tests/quotes.py``) is in that text: the
seeds and rules-decisions.md of ``../shared``. Each text's check skips where the text is absent."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import NamedTuple

import pytest

from tests import quotes
from tests.quotes import Quotes, source_text

TESTS = Path(__file__).parent
#: The quote helpers ``tests/quotes.py`` defines, by name: the rule text each quotes.
SHARED_HELPERS = {name: q.source for name, q in vars(quotes).items() if isinstance(q, Quotes)}


class Citation(NamedTuple):
    source: str
    sentence: str
    where: str


def _string(node: ast.expr, constants: dict[str, str]) -> str | None:
    """The string a node is: a literal, or a module constant bound to one."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return constants.get(node.id) if isinstance(node, ast.Name) else None


def citations(path: Path) -> list[Citation]:
    """The quotes of a test module: calls of a helper it imports from ``tests.quotes`` or binds
    at module level to ``Quotes(SOURCE)``. A quote that is not one string literal is an error,
    since it could not be checked."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    constants: dict[str, str] = {}
    helpers: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "tests.quotes":
            helpers |= {a.asname or a.name: SHARED_HELPERS[a.name] for a in node.names if a.name in SHARED_HELPERS}
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name, value = node.targets[0].id, node.value
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == Quotes.__name__:
                source = _string(value.args[0], constants) if len(value.args) == 1 else None
                if source is None:
                    raise ValueError(f"{path.name}:{node.lineno}: Quotes takes one string, a rule text's name")
                helpers[name] = source
            elif isinstance(value, ast.Constant) and isinstance(value.value, str):
                constants[name] = value.value
    bound = {id(node.value) for node in tree.body if isinstance(node, ast.Assign)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == Quotes.__name__:
            if id(node) not in bound:
                raise ValueError(
                    f"{path.name}:{node.lineno}: bind Quotes to a name at module level, so its quotes can be found"
                )
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in helpers:
            sentence = _string(node.args[0], {}) if len(node.args) == 1 and not node.keywords else None
            if sentence is None:
                raise ValueError(f"{path.name}:{node.lineno}: a quote is one string literal, so it can be checked")
            found.append(Citation(helpers[node.func.id], sentence, f"{path.name}:{node.lineno}"))
    return found


CITATIONS = [c for path in sorted(TESTS.glob("test_*.py")) for c in citations(path)]


def test_quotes_are_found_through_every_helper_and_a_computed_one_is_refused(tmp_path: Path) -> None:
    module = tmp_path / "test_sample.py"
    module.write_text(
        "from tests.quotes import decided, seed_says as says\n"
        'SEED = "001.txt"\n'
        "quote = Quotes(SEED)\n"
        'other = Quotes("002.txt")\n'
        "def test_it():\n"
        '    quote("Un." " Deux.")\n'
        '    says("Trois.")\n'
        '    decided("Quatre.")\n'
        '    other("Cinq.")\n'
        '    print("Six.")\n'
    )
    assert citations(module) == [
        Citation("001.txt", "Un. Deux.", "test_sample.py:6"),
        Citation(quotes.AFFICHE_SEED, "Trois.", "test_sample.py:7"),
        Citation(quotes.DECISIONS, "Quatre.", "test_sample.py:8"),
        Citation("002.txt", "Cinq.", "test_sample.py:9"),
    ]
    module.write_text('quote = Quotes("001.txt")\nWORDS = "Un."\nquote(WORDS.upper())\n')
    with pytest.raises(ValueError, match="test_sample.py:3: a quote is one string literal"):
        citations(module)
    module.write_text('def test_it():\n    Quotes("001.txt")("Un.")\n')
    with pytest.raises(ValueError, match="test_sample.py:2: bind Quotes to a name at module level"):
        citations(module)


@pytest.mark.parametrize("source", sorted({c.source for c in CITATIONS}))
def test_every_quoted_sentence_is_in_its_rule_text(source: str) -> None:
    text = source_text(source)
    missing = [
        f"{c.where}: {c.sentence}" for c in CITATIONS if c.source == source and " ".join(c.sentence.split()) not in text
    ]
    assert not missing, f"not in {source}:\n" + "\n".join(missing)
