"""The booklet's Jinja environment: a sandbox over the referee's template folders.

A template folder may come from a stranger, so every template (the built-in ones too, so both
are held to the same rules) renders in Jinja's immutable sandbox, narrowed further:

- the globals are Delve's helpers and nothing else (no `range`, `dict`, `lipsum`, `cycler`,
  `joiner` or `namespace`); the filters and tests are Jinja's own and Delve's;
- no attribute starting with `_`, none of Python's internals, nothing that changes a list or
  dict (the sandbox's rules), and beyond them: attributes only of plain values (text,
  numbers, lists, dicts...), of Delve's model, rules systems and render helpers, and of
  Jinja's own loop and macro objects, never of functions, classes, modules, file paths or
  the tables themselves (which could load files); no calling a class or a builtin function;
- text, lists and numbers built in a template are bounded (`*`, `**`, `+`, `~` and `%`, every
  filter and every call: render/template_bounds.py), and so is its whole output;
- a template file is at most MAX_TEMPLATE_BYTES, checked before it is read.

Compiled templates are cached in the cache folder, signed (see engine/cachefiles.py) and
keyed by this sandbox's version, so code compiled by another environment is never run.
CPU time and memory are bounded by rendering user templates in a child process
(render/isolate.py).
"""

from __future__ import annotations

import functools
import os
import re
import traceback
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
from jinja2.compiler import CodeGenerator
from jinja2.loaders import split_template_path
from jinja2.sandbox import ImmutableSandboxedEnvironment, SecurityError
from markupsafe import Markup

from generator import __version__
from generator.engine import cachefiles
from generator.errors import DelveError, TemplateError
from generator.render.booklet import BUILTIN_PREFIX, builtin_templates_dir
from generator.render.template_bounds import (
    MAX_BUILT,  # noqa: F401  (the limit's home is template_bounds; kept here for callers)
    bound_filter,
    bounded_output,
    bounded_result,
    bounded_size,
    check_call,
    check_printf,
)

MAX_TEMPLATE_BYTES = 1024 * 1024  # hand-written templates are a few KB
MAX_POWER_BITS = 100_000  # digits of 2 ** x a template may compute (about 30,000 decimal)
_SANDBOX_VERSION = 3  # part of every compiled template's cache key (3: `%`, and finalize)
MAX_WORD = 100  # characters of a word printed whole (no word in Delve's own text comes near)
_LONG_WORD = re.compile(rf"\S{{{MAX_WORD + 1},}}")

_PLAIN = (str, int, float, bool, type(None), list, tuple, dict, set, frozenset, Fraction)
_MODULES = ("generator.model.", "generator.systems.", "generator.render.", "generator.sim.")
_JINJA = ("jinja2.runtime", "jinja2.utils", "markupsafe")
_NEVER = ("TableSet", "Table", "Entry", "Rng", "LazyTables")  # may read files or roll dice


def _readable(obj: Any) -> bool:
    """Whether a template may read attributes of `obj` at all."""
    kind = type(obj)
    if isinstance(obj, _PLAIN) and (kind in _PLAIN or isinstance(obj, Markup)):
        return True
    module = kind.__module__ or ""
    if kind.__name__ in _NEVER or isinstance(obj, (type, os.PathLike)):
        return False
    return module.startswith(_MODULES) or module.startswith(_JINJA)


class Sandbox(ImmutableSandboxedEnvironment):
    """Jinja's immutable sandbox, narrowed to what a booklet needs (see the module's doc)."""

    intercepted_binops = frozenset({"*", "**", "+", "%"})

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        if not super().is_safe_attribute(obj, attr, value):
            return False
        if isinstance(value, (type, os.PathLike)) or type(value).__name__ in _NEVER:
            return False
        return _readable(obj)

    def getattr(self, obj: Any, attribute: str) -> Any:
        if isinstance(obj, jinja2.Undefined):  # `cycler.x`: say cycler is undefined
            obj._fail_with_undefined_error()
        return super().getattr(obj, attribute)

    def is_safe_callable(self, obj: Any) -> bool:
        if not super().is_safe_callable(obj) or isinstance(obj, type):
            return False
        owner = getattr(obj, "__self__", None)
        # A builtin such as open or eval is a method of the builtins module: never callable.
        return not (type(obj).__name__ == "builtin_function_or_method" and _is_module(owner))

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        if operator == "**" and isinstance(left, int) and isinstance(right, int):
            if right > 0 and abs(left) > 1 and abs(left).bit_length() * right > MAX_POWER_BITS:
                raise SecurityError(f"{left} ** {right} is too big a number for a template")
        if operator == "*":
            for seq, times in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(times, int):
                    bounded_size(len(seq) * times)
        if operator == "+" and isinstance(left, (str, list, tuple)):
            if isinstance(right, (str, list, tuple)):
                bounded_size(len(left) + len(right))
        if operator == "%" and isinstance(left, str):  # '%999999999d' % 1
            check_printf(left, right)
        return bounded_result(super().call_binop(context, operator, left, right))

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
        """A call from a template: a text method that grows it by an argument is checked
        first (`'x'.ljust(10**9)`), and any result after."""
        check_call(__obj, args, kwargs)
        return bounded_result(super().call(__context, __obj, *args, **kwargs))

    @staticmethod
    def bounded(value: Any) -> Any:
        """Joined text (`a ~ b`) within MAX_BUILT characters (called by compiled templates)."""
        bounded_size(len(value))
        return value


def _is_module(obj: Any) -> bool:
    return type(obj).__name__ == "module"


class _CodeGenerator(CodeGenerator):
    """Compiles `a ~ b` through Sandbox.bounded, so no template can double a text forever."""

    def visit_Concat(self, node: Any, frame: Any) -> None:  # noqa: N802 (Jinja's name)
        self.write("environment.bounded(")
        super().visit_Concat(node, frame)
        self.write(")")


Sandbox.code_generator_class = _CodeGenerator


class _Folders(jinja2.FileSystemLoader):
    """A FileSystemLoader that reads only regular files inside its folders (a symlink out of
    a folder is refused, as the PDF's fetcher refuses it), none too big to be a template."""

    def get_source(self, environment: Any, template: str) -> Any:
        from generator.reading import Unreadable, read_text

        pieces = split_template_path(template)
        for root in self.searchpath:
            path = os.path.join(root, *pieces)
            if not os.path.lexists(path):
                continue
            real, top = os.path.realpath(path), os.path.realpath(root)
            if not real.startswith(top + os.sep):
                raise TemplateError(f"{path}: not a file inside the template folder {root}")
            try:  # a regular file only (a FIFO would block), checked before it is read
                source = read_text(real, MAX_TEMPLATE_BYTES, "a template")
            except Unreadable as err:
                raise TemplateError(f"{path}: {err}") from None
            mtime = os.path.getmtime(real)
            return source, os.path.normpath(path), functools.partial(_unchanged, real, mtime)
        raise jinja2.TemplateNotFound(template)


def _unchanged(path: str, mtime: float) -> bool:
    try:
        return os.path.getmtime(path) == mtime
    except OSError:
        return False


def _loader(folders: tuple[Path, ...]) -> Any:
    builtin = builtin_templates_dir()
    return jinja2.ChoiceLoader(
        [
            jinja2.PrefixLoader({BUILTIN_PREFIX[:-1]: _Folders(builtin)}),
            _Folders([*folders, builtin]),
        ]
    )


class SignedBytecodeCache(jinja2.BytecodeCache):
    """Compiled templates kept in the cache folder, each file signed with this user's key and
    named for this sandbox and version (Jinja checks each template's source checksum itself),
    so a booklet does not compile its two dozen templates on every run."""

    KEEP = 400
    MAX_TOTAL = 32 * 1024 * 1024
    MAX_FILE = 4 * 1024 * 1024

    def _name(self, key: str) -> str:
        import hashlib

        tag = f"{__version__}|sandbox{_SANDBOX_VERSION}|{key}".encode()
        return "tpl-" + hashlib.sha256(tag).hexdigest()[:40]

    def load_bytecode(self, bucket: Any) -> None:
        payload = cachefiles.read("templates", self._name(bucket.key), "template", self.MAX_FILE)
        if payload is not None:
            bucket.bytecode_from_string(payload)  # only ever our own signed bytes

    def dump_bytecode(self, bucket: Any) -> None:
        payload = bucket.bytecode_to_string()
        if len(payload) <= self.MAX_FILE:
            name = self._name(bucket.key)
            cachefiles.write(
                "templates", name, "template", payload, self.KEEP, self.MAX_TOTAL, "tpl-"
            )


def breakable(value: Any) -> Any:
    """Printed text (every `{{ ... }}`) with a zero-width space in any word longer than
    MAX_WORD, every MAX_WORD characters: WeasyPrint hyphenates a word in time that grows
    steeply with its length (a 3,000-character word in a stat block took a PDF 514 s of CPU
    time), and a document, a table or a roll of joined references can hold one. Markup (the
    maps' SVG) passes as it is; no word of Delve's own text is that long."""
    if isinstance(value, str) and not isinstance(value, Markup) and len(value) > MAX_WORD:
        return _LONG_WORD.sub(_break_word, value)
    return value


def _break_word(match: re.Match[str]) -> str:
    word = match.group()
    return "\u200b".join(word[i : i + MAX_WORD] for i in range(0, len(word), MAX_WORD))


@lru_cache(maxsize=16)
def environment(folders: tuple[Path, ...] = ()) -> Any:
    """The sandboxed environment over the user's folders and the built-ins (cached per search
    path). StrictUndefined makes a missing value an error; autoescape makes table text text."""
    from generator.render import helpers

    env = Sandbox(
        loader=_loader(folders),
        bytecode_cache=SignedBytecodeCache() if cachefiles.enabled() else None,
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        finalize=breakable,
    )
    env.globals.clear()  # not even Jinja's defaults: only what Delve provides
    env.filters.update(helpers.filters())
    # Jinja's own filters too (center, indent, replace, format...): bounded, each one.
    env.filters = {name: bound_filter(name, fn) for name, fn in env.filters.items()}
    env.globals.update(helpers.globals_())
    return env


def render_template(name: str, context: dict[str, Any], folders: Sequence[Path]) -> str:
    """Render one template by name; every template problem becomes one TemplateError line
    naming the file and line."""
    folders = tuple(Path(p) for p in folders)
    roots = [*folders, builtin_templates_dir()]
    env = environment(tuple(p.resolve() for p in folders))
    try:
        return bounded_output(env.get_template(name).generate(context))
    except (DelveError, MemoryError):
        raise  # a table or document problem names its own file, table and entry
    except jinja2.TemplateSyntaxError as err:
        where = err.filename or err.name or name
        raise TemplateError(f"{where}:{err.lineno}: template syntax error: {err.message}") from err
    except jinja2.TemplateNotFound as err:
        where = _template_frame(err, roots)
        searched = ", ".join(str(p) for p in roots)
        raise TemplateError(
            f"{where + ': ' if where else ''}template '{err.name}' not found in {searched}"
        ) from err
    except SecurityError as err:
        where = _template_frame(err, roots) or name
        raise TemplateError(f"{where}: not allowed in a template: {err}") from err
    except jinja2.UndefinedError as err:
        where = _template_frame(err, roots) or name
        raise TemplateError(f"{where}: template uses an undefined value: {err.message}") from err
    except RecursionError as err:
        where = _template_frame(err, roots) or name
        raise TemplateError(f"{where}: templates call or include each other too deeply") from err
    except Exception as err:  # a helper called wrongly from a user's template
        where = _template_frame(err, roots)
        if not where:
            raise
        raise TemplateError(f"{where}: template error: {type(err).__name__}: {err}") from err


def _template_frame(err: BaseException, roots: Sequence[Path]) -> str:
    """'FILE:LINE' of the innermost template frame in the traceback (Jinja rewrites frames so
    they point at the template source), or '' when the error did not come from a template."""
    prefixes = [str(p.resolve()) + os.sep for p in roots]
    found = ""
    frames = traceback.extract_tb(err.__traceback__)
    for frame in frames[-200:]:  # a runaway recursion has thousands: its last ones suffice
        name = str(Path(frame.filename).resolve()) if frame.filename else ""
        if frame.lineno and any(name.startswith(root) for root in prefixes):
            found = f"{frame.filename}:{frame.lineno}"
    return found
