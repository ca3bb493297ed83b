"""Every output speaks the chosen rules system: no FMC Basic procedure left in another's text."""

from __future__ import annotations

import json
import re

import pytest

from generator.build.region import generate_region
from generator.build.site import generate_site
from generator.engine.rng import Rng
from generator.render.context import using_system
from generator.render.documents import render
from generator.systems import get_system

SYSTEMS = ["fmc", "fortmayn", "f4c", "fantasy-core"]
# FMC Basic's own words for its procedures. Fantasy Core rolls against a DC too, so "DC" is
# only foreign to (Fortmayn) and f4c.
FMC_ONLY = {
    "fortmayn": [r"tempts? fate", r"tempting fate", r"\bDC\b", r"\bXP\b"],
    "f4c": [r"tempts? fate", r"tempting fate", r"\bDC\b"],
    "fantasy-core": [r"tempts? fate", r"tempting fate"],
}


def _foreign(system: str, text: str) -> list[str]:
    return [p for p in FMC_ONLY.get(system, []) if re.search(p, text, re.IGNORECASE)]


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("fmt", ["text", "md"])
def test_site_key_speaks_the_system(builtin_tables, system, fmt):
    words = get_system(builtin_tables, system)
    for i in range(12):
        site = generate_site(builtin_tables, Rng(f"speak/{i}"), level=1 + i % 4, rooms=12)
        with using_system(words):
            text = render(site, fmt)
        assert _foreign(system, text) == [], (site.seed, _foreign(system, text))
        flat = " ".join(text.split())  # the text renderer wraps lines
        assert words.name in flat
        for m in site.bestiary.values():
            assert words.stat_block(m).line in flat


@pytest.mark.parametrize("system", SYSTEMS)
def test_region_key_speaks_the_system(builtin_tables, system):
    words = get_system(builtin_tables, system)
    region = generate_region(builtin_tables, Rng("speak/region"), radius=2)
    with using_system(words):
        text = render(region, "text")
    assert _foreign(system, text) == []


def test_fmc_keeps_its_own_words(builtin_tables):
    site = generate_site(builtin_tables, Rng("fmc-words"), rooms=18)
    with using_system(get_system(builtin_tables, "fmc")):
        text = render(site, "text")
    assert "XP" in text and "DC" in text


def test_fortmayn_site_has_five_random_events_and_no_xp(builtin_tables):
    site = generate_site(builtin_tables, Rng("events"), level=2)
    with using_system(get_system(builtin_tables, "fortmayn")):
        text = render(site, "text")
    events = re.findall(r"^\s+\* ([1-5])\. ", text, re.MULTILINE)
    assert events == ["1", "2", "3", "4", "5"]
    assert "gains one die" in text


def test_cli_system_is_recorded_and_rendered_again(run_cli, tmp_path):
    res = run_cli("site", "--seed", "sys", "--system", "f4c", "-f", "json")
    assert res.code == 0, res.err
    doc = json.loads(res.out)
    assert doc["system"] == "f4c"
    path = tmp_path / "site.json"
    path.write_text(res.out)
    again = run_cli("render", str(path), "-f", "text")
    assert "Monsters (f4c)" in again.out
    other = run_cli("render", str(path), "-f", "text", "--system", "fantasy-core")
    assert "Monsters (Fantasy Core)" in other.out


@pytest.mark.parametrize(
    "command", [["site", "--seed", "x"], ["region"], ["hoard"], ["weapon"], ["monsters"]]
)
def test_cli_unknown_system_lists_them(run_cli, command):
    res = run_cli(*command, "--system", "gurps")
    assert res.code == 1
    assert "unknown system 'gurps'" in res.err and "fantasy-core" in res.err
    assert len(res.err.strip().splitlines()) == 1


def test_cli_treasure_in_a_system(run_cli):
    fm = run_cli("hoard", "--level", "2", "--seed", "t", "--system", "fortmayn")
    assert fm.code == 0 and "XP" not in fm.out
    fmc = run_cli("hoard", "--level", "2", "--seed", "t")
    assert "XP" in fmc.out
    w = run_cli("weapon", "--die", "d12", "--seed", "w", "--system", "f4c")
    assert "automatic (A) damage" in w.out or "bonus" not in w.out


@pytest.mark.parametrize("system", SYSTEMS)
def test_site_and_region_booklets_speak_the_system(builtin_tables, system):
    """The HTML booklets (the PDF is drawn from them) keep no FMC-only words."""
    from generator.render.booklet import booklet_html

    words = get_system(builtin_tables, system)
    site = generate_site(builtin_tables, Rng("booklet-words"), level=2, rooms=12)
    region = generate_region(builtin_tables, Rng("booklet-words"), radius=1)
    for model in (site, region):
        model.system = system
        with using_system(words):
            html = booklet_html(model)
        text = re.sub(r"<style>.*?</style>|<svg.*?</svg>|<[^>]+>", " ", html, flags=re.S)
        assert _foreign(system, text) == [], (model.kind, _foreign(system, text))
        assert "Rules at the table" in text
        for m in list(model.bestiary.values())[:3]:
            assert m.name in text


def test_fortmayn_pdf_booklet_reads_in_its_terms(builtin_tables, tmp_path):
    from pypdf import PdfReader

    from generator.render.booklet import booklet_pdf

    words = get_system(builtin_tables, "fortmayn")
    site = generate_site(builtin_tables, Rng("fortmayn-pdf"), level=1)
    site.system = "fortmayn"
    with using_system(words):
        pdf = booklet_pdf(site)
    path = tmp_path / "site.pdf"
    path.write_bytes(pdf)
    text = " ".join(page.extract_text() for page in PdfReader(path).pages)
    assert _foreign("fortmayn", text) == []
    assert "Difficulty Dice" in text and "Random events" in text.title().replace("Events", "events")


# --------------------------------------------------------------------------- magic weapons

FMC_BONUS = "to attack and damage rolls"


def _bonus_weapon_seed(builtin_tables, die: str = "d12"):
    from generator.build.treasure import roll_weapon

    for i in range(200):
        # The root carries the command's options (build/address.py): what `--die` seeds.
        seed = f"bonus/{i}@die={die}"
        w = roll_weapon(builtin_tables, Rng(seed), die)
        if w.bonus:
            return seed, w
    raise AssertionError("no weapon with a bonus in 200 seeds")


def _check_bonus_words(builtin_tables, system: str, text: str, weapons) -> None:
    """Each weapon's bonus is said once, in the system's words, and FMC's only where it fits."""
    words = get_system(builtin_tables, system)
    flat = " ".join(text.split())
    for w in weapons:
        phrase = words.term("weapon_bonus", bonus=w.bonus)
        # Said once wherever the weapon is described (a booklet's summary names it again).
        assert 1 <= flat.count(phrase) <= flat.count(w.name), (system, phrase, w.name)
    own = words.term("weapon_bonus", bonus=1)
    if FMC_BONUS not in own:  # (Fortmayn) and f4c word the bonus their own way
        assert FMC_BONUS not in flat, system
    assert "It adds +" not in flat


@pytest.mark.parametrize("system", SYSTEMS)
def test_weapon_command_words_the_bonus_in_the_system(builtin_tables, run_cli, system):
    seed, weapon = _bonus_weapon_seed(builtin_tables)
    res = run_cli("weapon", "--die", "d12", "--seed", seed, "--system", system)
    assert res.code == 0, res.err
    assert weapon.name.split(",")[0] in res.out
    _check_bonus_words(builtin_tables, system, res.out, [weapon])
    if system == "fortmayn":
        assert "advantage on BODY rolls" in " ".join(res.out.split())


@pytest.mark.parametrize("system", SYSTEMS)
def test_hoard_command_words_the_weapon_bonus_in_the_system(builtin_tables, run_cli, system):
    from generator.build.treasure import roll_hoard

    for i in range(300):
        hoard = roll_hoard(
            builtin_tables, Rng(f"bonus-hoard/{i}@level=5+holder=d12"), 5000, 5, "d12"
        )
        weapons = [it.weapon for it in hoard.items if it.weapon and it.weapon.bonus]
        if weapons:
            break
    else:
        raise AssertionError("no hoard with a bonus weapon in 300 seeds")
    res = run_cli(
        "hoard", "--level", "5", "--holder-die", "d12", "--seed", f"bonus-hoard/{i}",
        "--system", system,
    )  # fmt: skip
    assert res.code == 0, res.err
    _check_bonus_words(builtin_tables, system, res.out, weapons)


@pytest.fixture(scope="module")
def bonus_site(builtin_tables):
    """The first level-5 site (over fixed seeds) holding a magic weapon with a bonus."""
    for i in range(60):
        site = generate_site(builtin_tables, Rng(f"bonus-site/{i}@level=5"), level=5)
        weapons = [
            it.weapon
            for r in site.rooms
            if r.hoard
            for it in r.hoard.items
            if it.weapon and it.weapon.bonus
        ]
        if weapons:
            return f"bonus-site/{i}", weapons
    raise AssertionError("no site with a bonus weapon in 60 seeds")


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("fmt", ["text", "md", "html"])
def test_site_booklets_word_the_weapon_bonus_in_the_system(
    builtin_tables, run_cli, tmp_path, bonus_site, system, fmt
):
    seed, weapons = bonus_site
    out = tmp_path / f"site.{fmt}"
    res = run_cli("site", "--seed", seed, "--level", "5", "--system", system, "-f", fmt, "-o", out)
    assert res.code == 0, res.err
    text = out.read_text(encoding="utf-8")
    if fmt == "html":
        text = re.sub(r"<style>.*?</style>|<svg.*?</svg>|<[^>]+>", " ", text, flags=re.S)
        text = text.replace("&#34;", '"').replace("&quot;", '"').replace("&#39;", "'")
    _check_bonus_words(builtin_tables, system, text, weapons)
