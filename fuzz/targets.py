"""What each fuzz target runs, and the promises it holds the tool to on every input.

A target takes one generated input, runs one part of the tool on it, and returns what came out (the
diagnostic codes and messages, the seconds taken). It raises :class:`Broken` when a promise is broken;
any other exception escaping the tool is a crash. The promises:

- ``loader``: a document or located Y-family diagnostics, from both the canonical and the fast path;
- ``check``: the whole check on a small registry holding the input as one of its records gives findings
  located inside the files they name, text output with no control character, within the time bound;
- ``expr``: the formula evaluator gives an exact value or an ExpressionError with a column in the text;
- ``quantity``: the quantity and context parsers give a value or their own error;
- ``fmt``: formatting gives text that loads to the same values, or refuses the file.
"""

from __future__ import annotations

import io
import re
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from fuzz.strategies import FIXTURES

SECONDS_PER_INPUT = 5.0
"""The time bound for one input (one file); past it, the input is reported as a finding."""

_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_BREAKS = re.compile(r"\r\n|\r|\n")


class Broken(AssertionError):
    """A promise the tool makes about bad input does not hold for this input."""


@dataclass(frozen=True)
class Outcome:
    codes: tuple[str, ...] = ()
    messages: tuple[str, ...] = ()
    seconds: float = 0.0


def _promise(condition: bool, message: str) -> None:
    if not condition:
        raise Broken(message)


def _lines(raw: bytes) -> int:
    return len(_BREAKS.findall(raw.decode("utf-8", errors="replace"))) + 1


def _timed(run: Callable[[], Outcome]) -> Outcome:
    started = time.perf_counter()
    outcome = run()
    seconds = time.perf_counter() - started
    _promise(seconds < SECONDS_PER_INPUT, f"took {seconds:.1f} s, past the {SECONDS_PER_INPUT} s bound")
    return Outcome(outcome.codes, outcome.messages, seconds)


# ---------------------------------------------------------------- loader


def loader(raw: bytes) -> Outcome:
    from registry.checker.fastload import fast_load_bytes
    from registry.checker.load import load_canonical

    def run() -> Outcome:
        codes: list[str] = []
        messages: list[str] = []
        for load in (load_canonical, fast_load_bytes):
            result = load("r.yaml", raw)
            _promise((result.document is None) == bool(result.diagnostics), "a document and diagnostics both")
            for d in result.diagnostics:
                _promise(d.code.startswith("Y"), f"{d.code} from the loader")
                _promise(1 <= d.line <= _lines(raw) and d.column >= 1, f"{d.code} at {d.line}:{d.column}")
                codes.append(d.code)
                messages.append(d.message)
            if result.document is not None:
                _promise(isinstance(result.document.data, dict), "a document whose root is not a mapping")
        return Outcome(tuple(codes), tuple(messages))

    return _timed(run)


# ---------------------------------------------------------------- the whole check


class Registry:
    """A small registry (the valid fixtures) in a temporary folder, one file of which is the input."""

    def __init__(self) -> None:
        self.folder = tempfile.TemporaryDirectory(prefix="registry-fuzz-")
        self.root = Path(self.folder.name)
        repo = Path(__file__).resolve().parent.parent
        self.base: dict[str, bytes] = {}
        for fixture, record_id in FIXTURES.items():
            source = repo / "tests/fixtures/valid" / f"{fixture}.yaml"
            self.base[f"records/{record_id}.yaml"] = source.read_bytes()
        for relative, data in self.base.items():
            (self.root / relative).parent.mkdir(parents=True, exist_ok=True)
            (self.root / relative).write_bytes(data)

    def place(self, relative: str, raw: bytes) -> Path:
        target = self.root / "records" / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(raw)
        return target

    def restore(self, target: Path) -> None:
        relative = target.relative_to(self.root).as_posix()
        if relative in self.base:
            target.write_bytes(self.base[relative])
        else:
            target.unlink()
            if target.parent != self.root / "records" and not any(target.parent.iterdir()):
                shutil.rmtree(target.parent)

    def close(self) -> None:
        self.folder.cleanup()


_REGISTRY: Registry | None = None


def registry() -> Registry:
    """The registry the ``check`` target places its inputs in, made on first use."""
    global _REGISTRY
    if _REGISTRY is None:
        _REGISTRY = Registry()
    return _REGISTRY


def close_registry() -> None:
    """Remove the ``check`` target's registry (a later input makes a new one)."""
    global _REGISTRY
    if _REGISTRY is not None:
        _REGISTRY.close()
        _REGISTRY = None


def check(item: tuple[str, bytes]) -> Outcome:
    from registry.checker.pipeline import check as run_check
    from registry.report.reporters import text

    relative, raw = item
    place = registry()
    target = place.place(relative, raw)

    def run() -> Outcome:
        result = run_check(place.root)
        out, err = io.StringIO(), io.StringIO()
        text(result, out, err)
        _promise(not _CONTROL.search(out.getvalue()), "a control character in the text report")
        for d in result.diagnostics:
            named = place.root / d.path
            lines = _lines(named.read_bytes()) if named.is_file() and not named.is_symlink() else 1
            _promise(1 <= d.line <= lines and d.column >= 1, f"{d.path}:{d.line}:{d.column} {d.code}")
        found = result.diagnostics
        return Outcome(tuple(d.code for d in found), tuple(d.message for d in found))

    try:
        return _timed(run)
    finally:
        place.restore(target)


# ---------------------------------------------------------------- formulas and quantities

_NAMES: dict[str, Fraction | int] = {
    "num_hidden_layers": 61,
    "kv_lora_rank": 512,
    "qk_rope_head_dim": 64,
    "bytes": 2,
    "head_dim": 128,
    "x": 3,
}


def expr(text: str) -> Outcome:
    from registry.engine.expr import MAX_LENGTH, ExpressionError, evaluate

    def run() -> Outcome:
        try:
            value = evaluate(text, _NAMES)
        except ExpressionError as error:
            _promise(1 <= error.column <= max(len(text), MAX_LENGTH) + 1, f"column {error.column}")
            return Outcome(("ExpressionError",), (error.message,))
        _promise(isinstance(value, Fraction), f"a {type(value).__name__}, not an exact value")
        return Outcome(("value",))

    return _timed(run)


def quantity(text: str) -> Outcome:
    from registry.engine.units import QuantityError, parse_context, parse_quantity

    def run() -> Outcome:
        codes: list[str] = []
        messages: list[str] = []
        try:
            parsed = parse_quantity(text)
            _promise(parsed.value >= 0 and parsed.tolerance > 0, f"{text!r} read as {parsed}")
            codes.append("quantity")
        except QuantityError as error:
            codes.append("QuantityError")
            messages.append(str(error))
        try:
            _promise(parse_context(text) >= 1, "a context below one token")
            codes.append("context")
        except QuantityError as error:
            codes.append("QuantityError")
            messages.append(str(error))
        return Outcome(tuple(codes), tuple(messages))

    return _timed(run)


# ---------------------------------------------------------------- fmt


def _typed(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _typed(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_typed(item) for item in value]
    return (type(value).__name__, value)


def fmt(item: tuple[str, bytes]) -> Outcome:
    from registry.authoring.fmt import FmtLoadError, format_text
    from registry.checker.encoding import decode
    from registry.checker.load import load_text
    from registry.errors import FmtRefused

    _, raw = item
    text, _ = decode("r.yaml", raw)

    def run() -> Outcome:
        if text is None:
            return Outcome(("undecodable",))
        try:
            formatted = format_text(text)
        except FmtLoadError:
            return Outcome(("FmtLoadError",))
        except FmtRefused as refused:
            return Outcome(("FmtRefused",), (str(refused),))
        before, after = load_text("r.yaml", text).document, load_text("r.yaml", formatted).document
        _promise(before is not None and after is not None, "fmt wrote a file that does not load")
        assert before is not None and after is not None
        _promise(_typed(before.data) == _typed(after.data), "fmt changed a value")
        return Outcome(("formatted",))

    return _timed(run)
