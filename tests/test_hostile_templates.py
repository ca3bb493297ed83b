"""Hostile template folders (--templates): nothing runs, nothing is read, nothing hangs.

Every well-known escape from a Jinja template is tried in a user's cover template; each must
be one line naming the template and its line, exit 1, and nothing done: the escapes that would
run a command try to create a marker file, which must not exist afterwards.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from jinja2.bccache import Bucket

from generator.engine import cachefiles
from generator.errors import TemplateError
from generator.render import booklet, helpers, pdf, templating

SEED = "hostile-templates"


def cover(folder: Path, text: str) -> Path:
    (folder / "parts").mkdir(parents=True, exist_ok=True)
    path = folder / "parts" / "cover.html.j2"
    path.write_text(text, encoding="utf-8")
    return path


def one_line(result, *needles: str) -> None:
    lines = result.err.splitlines()
    assert result.code == 1, result.err
    assert len(lines) == 1 and lines[0].startswith("delve: error: "), result.err
    for needle in needles:
        assert needle in result.err, (needle, result.err)


def _escapes(marker: Path) -> list[tuple[str, str]]:
    run = f"popen('touch {marker}').read()"
    return [
        ("cycler", f"{{{{ cycler.__init__.__globals__.os.{run} }}}}"),
        ("joiner", f"{{{{ joiner.__init__.__globals__.os.{run} }}}}"),
        ("namespace", f"{{{{ namespace.__init__.__globals__.os.{run} }}}}"),
        ("lipsum", f"{{{{ lipsum.__globals__['os'].{run} }}}}"),
        ("__class__", "{{ ''.__class__ }}"),
        ("__mro__", "{{ ().__class__.__mro__[1] }}"),
        ("__subclasses__", "{{ [].__class__.__base__.__subclasses__() }}"),
        ("__globals__", f"{{{{ exits.__globals__['os'].{run} }}}}"),
        ("template-reference", "{{ self._TemplateReference__context }}"),
        ("function-attribute", "{{ count.__code__.co_consts }}"),
        ("function-module", "{{ plural.__module__ }}"),
        ("method-func", "{{ rules.stat_block.__func__ }}"),
        ("method-self", "{{ site.to_dict.__self__ }}"),
        ("model-class", "{{ site.rooms[0].__class__.__init__.__globals__ }}"),
        ("tables", "{{ rules.tables.load(['/etc']) }}"),
        ("format-string", "{{ '{0.__class__}'.format(site) }}"),
        ("attr-filter", "{{ site|attr('__class__') }}"),
        ("range", "{% for i in range(3) %}{{ i }}{% endfor %}"),
        ("dict", "{{ dict(a=1) }}"),
    ]


@pytest.mark.parametrize("name", [name for name, _ in _escapes(Path("m"))])
def test_every_known_escape_is_one_line_and_runs_nothing(run_cli, tmp_path, name):
    marker = tmp_path / "PWNED"
    text = dict(_escapes(marker))[name]
    path = cover(tmp_path / "mine", "<h1>{{ site.name }}</h1>\n" + text + "\n")
    out = tmp_path / "site.html"
    result = run_cli(
        "site", "--seed", SEED, "--format", "html", "--templates", tmp_path / "mine", "-o", out
    )
    one_line(result, f"{path}:2:")
    assert not marker.exists(), "a template ran a command"
    assert not out.exists()


def test_the_sandbox_itself_refuses_what_the_cli_never_reaches(tmp_path):
    """In process (no child), straight through the environment: the same refusals."""
    env = templating.environment(())
    for text in ("{{ x.__class__ }}", "{{ f.__globals__ }}", "{{ p.read_text() }}"):
        template = env.from_string(text)
        with pytest.raises(Exception, match="unsafe|undefined"):
            template.render(x="s", f=templating.render_template, p=tmp_path)
    assert set(env.globals) == set(helpers.globals_())


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("{{ 'x' * 100000000 }}", "at most 20,000,000 characters"),
        ("{% macro f(s) %}{{ f(s ~ s) }}{% endmacro %}{{ f('ab') }}", "at most 20,000,000"),
        ("{{ 9 ** 9999999 }}", "too big a number"),
        ("{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}", "too deeply"),
    ],
    ids=["multiply", "double", "power", "recursion"],
)
def test_a_template_cannot_build_a_huge_value(run_cli, tmp_path, bounded, text, says):
    path = cover(tmp_path / "mine", text + "\n")
    with bounded(seconds=120, memory_mb=1536):
        result = run_cli(
            "site", "--seed", SEED, "-f", "html", "--templates", tmp_path / "mine", "-o",
            tmp_path / "x.html",
        )  # fmt: skip
    one_line(result, str(path), says)


def test_a_runaway_template_is_stopped_by_the_cpu_limit(run_cli, tmp_path, monkeypatch, bounded):
    monkeypatch.setenv("DELVE_TEMPLATE_SECONDS", "3")
    loop = "{% for a in 'x' * 100000 %}{% for b in 'x' * 100000 %}{% endfor %}{% endfor %}"
    cover(tmp_path / "mine", loop)
    with bounded(seconds=120):
        result = run_cli(
            "site", "--seed", SEED, "-f", "pdf", "--templates", tmp_path / "mine", "-o",
            tmp_path / "x.pdf",
        )  # fmt: skip
    one_line(result, "more than 3 s of CPU time", "DELVE_TEMPLATE_SECONDS")
    assert not (tmp_path / "x.pdf").exists()


def test_a_greedy_template_is_stopped_by_the_memory_limit(run_cli, tmp_path, monkeypatch, bounded):
    monkeypatch.setenv("DELVE_TEMPLATE_MEMORY_MB", "300")
    # Each list is under every size bound, and the page is short; but each call holds its own
    # list of 10 million while it calls the next: 8 GB, were nothing to stop them.
    cover(
        tmp_path / "mine",
        "{% macro f(n) %}{% set held = ('y' * 10000000)|list %}"
        "{{ f(n - 1) if n else '' }}{{ held|length }}{% endmacro %}{{ f(100) }}",
    )
    with bounded(seconds=120, memory_mb=1024):
        result = run_cli(
            "site", "--seed", SEED, "-f", "html", "--templates", tmp_path / "mine", "-o",
            tmp_path / "x.html",
        )  # fmt: skip
    one_line(result, "more than 300 MB of memory")


GROWTH = [
    ("center", "{{ 'a'|center(1000000000) }}"),
    ("indent", "{{ ('a\n' * 1000)|indent(1000000) }}"),
    ("replace", "{{ ('a' * 1000000)|replace('a', 'b' * 1000) }}"),
    ("join", "{{ (['ab'] * 1000000)|join('x' * 1000) }}"),
    ("format-width", "{{ '%1000000000d'|format(1) }}"),
    ("format-star", "{{ '%*d'|format(1000000000, 1) }}"),
    ("wordwrap", "{{ ('a ' * 1000000)|wordwrap(1, wrapstring='x' * 1000) }}"),
    ("batch", "{{ [1]|batch(1000000000, 'x')|list }}"),
    ("slice", "{{ [1]|slice(1000000000)|list }}"),
    ("percent", "{{ '%1000000000d' % 1 }}"),
    ("str-format", "{{ '{:>1000000000}'.format(1) }}"),
    ("str-format-nested", "{{ '{:>{w}}'.format(1, w=1000000000) }}"),
    ("format-map", "{{ '{0:>1000000000}'.format_map({}) }}"),
    ("ljust", "{{ 'x'.ljust(1000000000) }}"),
    ("zfill", "{{ 'x'.zfill(1000000000) }}"),
    ("expandtabs", "{{ ('\t' * 1000000).expandtabs(10000) }}"),
    ("str-replace", "{{ ('a' * 1000000).replace('a', 'b' * 1000) }}"),
    ("str-join", "{{ ('x' * 1000).join(['ab'] * 1000000) }}"),
]


@pytest.mark.parametrize(("name", "text"), GROWTH, ids=[n for n, _ in GROWTH])
def test_jinjas_own_filters_and_text_methods_are_bounded_before_they_build(
    tmp_path, bounded, name, text
):
    """Each would build a gigabyte or more; each is refused before it allocates (in this
    process, under 300 MB more than it uses)."""
    path = cover(tmp_path / "mine", text + "\n")
    with bounded(seconds=60, memory_mb=300), pytest.raises(TemplateError) as err:
        templating.render_template("parts/cover.html.j2", {}, [tmp_path / "mine"])
    assert str(path) in str(err.value) and "at most 20,000,000 characters" in str(err.value)


def test_the_same_filters_still_do_their_work(tmp_path):
    cover(
        tmp_path / "mine",
        "{{ 'ok'|center(6) }}|{{ '%5.1f'|format(3.14159) }}|{{ 'a b'|replace(' ', '-') }}|"
        "{{ [1, 2]|join(', ') }}|{{ 'x'.ljust(3) }}|{{ '{:>4}'.format(7) }}|{{ '%03d' % 5 }}|"
        "{{ 'a\nb'|indent(2, true) }}|{{ [1, 2, 3]|batch(2)|list }}",
    )
    out = templating.render_template("parts/cover.html.j2", {}, [tmp_path / "mine"])
    assert out == "  ok  |  3.1|a-b|1, 2|x  |   7|005|  a\n  b|[[1, 2], [3]]"


def test_a_templates_whole_output_is_bounded_as_it_streams(tmp_path, monkeypatch, bounded):
    from generator.render import template_bounds

    monkeypatch.setattr(template_bounds, "MAX_OUTPUT", 1_000_000)
    cover(tmp_path / "mine", "{% for i in 'x' * 2000 %}{{ 'y' * 1000 }}{% endfor %}\n")
    with bounded(seconds=60, memory_mb=300), pytest.raises(TemplateError) as err:
        templating.render_template("parts/cover.html.j2", {}, [tmp_path / "mine"])
    assert str(err.value) == (
        "parts/cover.html.j2: not allowed in a template: a template may print at most "
        "1,000,000 characters"
    )


def test_a_growing_filter_is_one_line_through_the_child_too(run_cli, tmp_path, bounded):
    path = cover(tmp_path / "mine", "{{ 'a'|center(1000000000) }}\n")
    with bounded(seconds=120, memory_mb=1024):
        result = run_cli(
            "site", "--seed", SEED, "-f", "html", "--templates", tmp_path / "mine", "-o",
            tmp_path / "x.html",
        )  # fmt: skip
    one_line(result, str(path), "at most 20,000,000 characters")


def test_the_cpu_cap_is_minutes_not_ten_of_them(monkeypatch):
    """The slowest real booklet measured (a 91-hex region's PDF) takes about 31 s of CPU."""
    from generator.render import isolate

    monkeypatch.delenv("DELVE_TEMPLATE_SECONDS", raising=False)
    assert isolate.seconds() == 120


def test_the_parent_takes_only_so_much_from_the_child(run_cli, tmp_path, monkeypatch, bounded):
    from generator.render import isolate

    monkeypatch.setattr(isolate, "MAX_RESULT_BYTES", 10_000)
    cover(tmp_path / "mine", "<h1>{{ site.name }}</h1>")
    with bounded(seconds=120, memory_mb=1024):
        result = run_cli(
            "site", "--seed", SEED, "-f", "html", "--templates", tmp_path / "mine", "-o",
            tmp_path / "x.html",
        )  # fmt: skip
    one_line(result, "the templates made a booklet of", "bytes; Delve takes at most 10,000")
    assert not (tmp_path / "x.html").exists()


def test_user_templates_still_render_and_warn_through_the_child(run_cli, tmp_path):
    cover(tmp_path / "mine", '<h1>Mine: {{ site.name }}</h1><img src="http://example.com/x.png">')
    out = tmp_path / "x.pdf"
    result = run_cli(
        "site", "--seed", SEED, "-f", "pdf", "--templates", tmp_path / "mine", "-o", out
    )
    assert result.code == 0, result.err
    assert out.read_bytes().startswith(b"%PDF")
    assert "refused to load http://example.com/x.png" in result.err  # relayed from the child


def test_a_huge_template_file_is_refused_unread(run_cli, tmp_path, bounded):
    path = cover(tmp_path / "mine", "")
    with open(path, "wb") as fh:  # 2 GB, sparse: costs no disk
        fh.truncate(2 * 1024**3)
    with bounded(seconds=60, memory_mb=512):
        result = run_cli(
            "site", "--seed", SEED, "-f", "html", "--templates", tmp_path / "mine", "-o",
            tmp_path / "x.html",
        )  # fmt: skip
    one_line(result, str(path), "too big for a template")


def test_a_template_that_is_a_fifo_is_refused_unopened(run_cli, tmp_path, bounded):
    (tmp_path / "mine" / "parts").mkdir(parents=True)
    os.mkfifo(tmp_path / "mine" / "parts" / "cover.html.j2")  # a read would block forever
    with bounded(seconds=60, memory_mb=512):
        result = run_cli(
            "site", "--seed", SEED, "-f", "html", "--templates", tmp_path / "mine", "-o",
            tmp_path / "x.html",
        )  # fmt: skip
    one_line(result, "cover.html.j2: is a pipe (FIFO)")
    assert not (tmp_path / "x.html").exists()


def test_a_template_symlinked_out_of_its_folder_is_refused(run_cli, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("the referee's secret")
    (tmp_path / "mine" / "parts").mkdir(parents=True)
    (tmp_path / "mine" / "parts" / "cover.html.j2").symlink_to(secret)
    result = run_cli(
        "site", "--seed", SEED, "-f", "html", "--templates", tmp_path / "mine", "-o",
        tmp_path / "x.html",
    )  # fmt: skip
    one_line(result, "not a file inside the template folder")
    assert not (tmp_path / "x.html").exists()


@pytest.mark.parametrize(
    "text",
    [
        '{% include "../secret.txt" %}',
        '{% include "parts/../../secret.txt" %}',
        '{% extends "/etc/hostname" %}',
        '{% import "/proc/self/environ" as e %}',
        '{% include "!builtin/../../secret.txt" %}',
    ],
    ids=["dot-dot", "inner-dot-dot", "absolute", "proc", "builtin-dot-dot"],
)
def test_a_template_reads_no_file_outside_the_template_folders(run_cli, tmp_path, text):
    """The loader takes names inside the folders only: no `..`, no absolute path."""
    (tmp_path / "secret.txt").write_text("the referee's secret")
    path = cover(tmp_path / "mine", "<h1>{{ site.name }}</h1>\n" + text + "\n")
    out = tmp_path / "site.html"
    result = run_cli(
        "site", "--seed", SEED, "-f", "html", "--templates", tmp_path / "mine", "-o", out
    )
    one_line(result, f"{path}:2:", "not found")
    assert "secret" not in result.err.replace("secret.txt", "") and not out.exists()


def test_an_asset_too_big_is_refused_unread(tmp_path, monkeypatch):
    monkeypatch.setattr(pdf, "MAX_ASSET_BYTES", 1000)
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "big.svg").write_text(
        "<svg xmlns='http://www.w3.org/2000/svg'>" + " " * 5000 + "</svg>"
    )
    warnings: list[str] = []
    options = booklet.make_options(templates=[mine], warn=warnings.append)
    fetcher = pdf.FolderFetcher(booklet.search_path(options))
    data = pdf.html_to_pdf('<img src="big.svg">', options, fetcher)
    assert data.startswith(b"%PDF") and fetcher.served == []
    assert any("too big for an image or font" in w for w in warnings), warnings


def test_a_table_error_while_rendering_names_the_table_not_the_template(run_cli, tmp_path):
    mine = tmp_path / "tables" / "systems" / "f4c"
    mine.mkdir(parents=True)
    (mine / "rewrites.yaml").write_text(
        "title: Rewrites\nfields:\n  find: str\n  replace: str\nentries:\n"
        "  - find: tempt fate\n    replace: 'flip {$nowhere}'\n"
    )
    result = run_cli(
        "--tables", tmp_path / "tables", "site", "--seed", SEED, "--system", "f4c", "-f", "html",
        "-o", tmp_path / "x.html",
    )  # fmt: skip
    one_line(result, "rewrites.yaml:6: table 'systems/f4c/rewrites'", "{$nowhere}")
    assert ".html.j2" not in result.err


def test_compiled_templates_are_signed_and_a_tampered_one_is_never_run(tmp_path, monkeypatch):
    monkeypatch.setenv("DELVE_CACHE_DIR", str(tmp_path / "cache"))
    marker = tmp_path / "PWNED"
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "plain.html.j2").write_text("hello {{ name }}")

    def fresh() -> str:
        env = templating.Sandbox(
            loader=templating._loader((mine,)), bytecode_cache=templating.SignedBytecodeCache()
        )
        return env.get_template("plain.html.j2").render(name="you")

    assert fresh() == "hello you"
    (cached,) = (tmp_path / "cache" / "templates").glob("tpl-*")
    signed = cached.read_bytes()
    assert signed.startswith(cachefiles.MAGIC)
    # What an attacker able to write the folder would plant: Jinja's own bytecode format,
    # holding code that runs a command the moment the template is loaded.
    bucket = Bucket(templating.Sandbox(), "key", "checksum")
    bucket.code = compile(f"import os\nos.system('touch {marker}')", "evil", "exec")
    evil = bucket.bytecode_to_string()
    forged = cachefiles.MAGIC + b"\0" * 32 + evil
    for data in (evil, forged, _flip(signed), signed[: len(signed) // 2]):
        cached.write_bytes(data)
        assert fresh() == "hello you"  # a miss: compiled again, and the file rewritten
        assert not marker.exists(), "a planted template cache ran code"
    assert cached.read_bytes().startswith(cachefiles.MAGIC)


def _flip(data: bytes) -> bytes:
    middle = len(data) // 2
    return data[:middle] + bytes([data[middle] ^ 0xFF]) + data[middle + 1 :]


def test_a_template_error_is_a_template_error_in_process_too(tmp_path):
    cover(tmp_path, "{{ ''.__class__ }}")
    with pytest.raises(TemplateError, match="cover.html.j2:1: not allowed in a template"):
        templating.render_template("parts/cover.html.j2", {}, [tmp_path])


def test_no_fork_means_the_same_sandbox(tmp_path, monkeypatch):
    """Where there is no fork (Windows), user templates render here, in the same sandbox."""
    monkeypatch.delattr(os, "fork")
    cover(tmp_path, "{{ cycler }}")
    with pytest.raises(TemplateError, match="'cycler' is undefined"):
        templating.render_template("parts/cover.html.j2", {}, [tmp_path])
