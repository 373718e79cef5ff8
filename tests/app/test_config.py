"""The board's config (scoreboard.toml): defaults, every problem at once (file, key, reason), and `config init`."""
import tomllib

import pytest

from scoreboard.app.config import (SCREEN_DEFAULTS, default_config, default_screens, default_text,
                                       load_config, surroundings, write_default)
from scoreboard.display.screens import Display
from tests.conftest import ROOT

SAMPLE = ROOT / "config" / "scoreboard.toml"    # the checkout's sample of what `config init` writes


def test_config_init_writes_a_file_that_loads_clean(tmp_path):
    """GIVEN `config init` WHEN its file is loaded THEN it has no problem and equals the defaults but for a new
    random passcode (issue 9 item 4) and a new board key of 128 bits (issue 24 item 6), different each time."""
    from scoreboard.links.osc.auth import parse_key
    path = write_default(tmp_path / "scoreboard.toml")
    config, problems = load_config(path)
    passcode, key = config["osc"].pop("passcode"), config["osc"].pop("key")
    view_key = config["watch"].pop("key")           # the overlay's link outlives a restart (issue 27)
    defaults = default_config()
    defaults["osc"].pop("passcode"), defaults["osc"].pop("key"), defaults["watch"].pop("key")
    assert problems == [] and config == defaults and len(view_key) >= 22
    assert len(passcode) == 8 and passcode.isalnum()
    assert len(parse_key(key)) == 16
    other = load_config(write_default(tmp_path / "other.toml"))[0]["osc"]
    assert other["passcode"] != passcode and other["key"] != key
    with pytest.raises(FileExistsError):
        write_default(path)


def test_shipped_config_is_what_config_init_writes():
    """GIVEN the repository's config/scoreboard.toml WHEN compared with what `config init` writes for one display
    THEN they are the same text, but for the passcode, which is never shipped (each board makes its own)."""
    shipped = SAMPLE.read_text(encoding="utf-8")
    assert shipped == default_text(None, passcode="")


def test_one_display_gets_the_audience_alone_two_get_the_host_on_the_laptop():
    """GIVEN the displays `config init` sees WHEN it writes the screens THEN one display has the audience alone (and
    the comment on adding the host's screen), two put the audience on the second and the host's on the first."""
    one = [Display(0, "laptop", (1366, 768))]
    two = one + [Display(1, "projector", (1920, 1080))]
    assert default_screens(one) == [dict(SCREEN_DEFAULTS, size=[1366, 768])]
    text = default_text(one)
    assert len(tomllib.loads(text)["screens"]) == 1 and "#   role = \"host\"" in text   # the note, commented out
    screens = default_screens(two)
    assert [(s["role"], s["display"], s["fullscreen"]) for s in screens] == [("audience", 1, True), ("host", 0, False)]
    assert screens[0]["size"] == [1920, 1080]


def test_empty_passcode_beyond_loopback_is_a_config_error(tmp_path):
    """GIVEN OSC on 0.0.0.0 with no passcode WHEN loaded THEN osc.passcode is a problem that says how to get one;
    on 127.0.0.1, or with OSC off, it is not."""
    path = tmp_path / "c.toml"
    path.write_text('[osc]\nbind = "0.0.0.0"\npasscode = ""\n', encoding="utf-8")
    problems = load_config(path)[1]
    assert [p.key for p in problems] == ["osc.passcode"] and "config init" in problems[0].reason
    path.write_text('[osc]\nbind = "127.0.0.1"\npasscode = ""\n', encoding="utf-8")
    assert load_config(path)[1] == []
    path.write_text('[osc]\nenabled = false\npasscode = ""\n', encoding="utf-8")
    assert load_config(path)[1] == []


def test_unknown_theme_missing_pack_folder_and_missing_display_are_reported(tmp_path):
    """GIVEN a config naming a theme that does not exist, a pack folder that is not there and a host screen on a
    second display WHEN checked on a machine with one display THEN each is a problem naming its key; an optional
    screen is only a note."""
    path = tmp_path / "c.toml"
    path.write_text(f"""
[board]
theme = "neon"
[packs]
dirs = ["{tmp_path / 'nowhere'}", "{tmp_path}"]
[osc]
bind = "127.0.0.1"
[[screens]]
role = "audience"
[[screens]]
role = "host"
display = 1
[[screens]]
role = "players"
display = 2
optional = true
""", encoding="utf-8")
    config, problems = load_config(path)
    assert [(p.key, "neon" in p.reason and "classic" in p.reason) for p in problems] == [("board.theme", True)]
    more, notes = surroundings(config, [Display(0, "HDMI-1", (1920, 1080))], str(path))
    assert [p.key for p in more] == ["packs.dirs", "screens[1].display"]
    assert "nowhere" in more[0].reason and "0: HDMI-1 1920x1080" in more[1].reason
    assert len(notes) == 1 and "screens[2]" in notes[0] and "optional" in notes[0]


def test_every_config_problem_is_named(tmp_path):
    """GIVEN a config with several mistakes WHEN loaded THEN each is reported with file and key, none stops the rest."""
    path = tmp_path / "bad.toml"
    path.write_text("""
[board]
theme = 5
fps = 1000
regulation = "moscow-1999"
colour = "red"
[[screens]]
role = "projector"
size = [10, 10]
[[screens]]
role = "host"
display = -1
[stuff]
x = 1
[osc]
port = "nine"
""", encoding="utf-8")
    config, problems = load_config(path)
    assert {p.file for p in problems} == {str(path)}
    assert {p.key for p in problems} >= {"board.theme", "board.fps", "board.regulation", "board.colour",
                                         "screens[0].role", "screens[0].size", "screens[1].display", "stuff",
                                         "osc.port"}


def test_missing_or_broken_file_is_reported(tmp_path):
    """GIVEN no file / a file that is not TOML WHEN loaded THEN the reason names the file."""
    _, problems = load_config(tmp_path / "nope.toml")
    assert "file not found" in problems[0].reason
    broken = tmp_path / "broken.toml"
    broken.write_text("[board\n", encoding="utf-8")
    _, problems = load_config(broken)
    assert "not valid TOML" in problems[0].reason


def test_shipped_config_only_lacks_its_passcode():
    """GIVEN the repository's config/scoreboard.toml WHEN loaded THEN its one problem is the passcode no shipped file
    has (the board refuses to listen on the network without one), and it shows the audience alone."""
    config, problems = load_config(SAMPLE)
    assert [p.key for p in problems] == ["osc.passcode"]
    assert [s["role"] for s in config["screens"]] == ["audience"]


def test_the_clubs_own_themes_and_regulations_are_found_in_its_config_folder(tmp_path, monkeypatch):
    """Issue 25 item 2. GIVEN a club's config folder ($SCOREBOARD_CONFIG's) holding its own regulation
    (regulations/club-2024.toml) and theme (themes/ours/theme.toml)
    WHEN the board looks them up by name — the regulations known, a new game, the theme, the config naming both
    THEN they are found beside the shipped ones (which still come first), and the config checks clean."""
    from scoreboard.app.config import check_config
    from scoreboard.display.theme.load import known_themes, load_theme
    from scoreboard.engine.commands import make
    from scoreboard.regulations import known_regulations
    from scoreboard.session import Session
    club = tmp_path / "club"
    (club / "regulations").mkdir(parents=True)
    (club / "themes" / "ours").mkdir(parents=True)
    text = (ROOT / "config" / "regulations" / "samara-2003.toml").read_text(encoding="utf-8")
    (club / "regulations" / "club-2024.toml").write_text(text.replace('name = "samara-2003"', 'name = "club-2024"'),
                                                         encoding="utf-8")
    (club / "themes" / "ours" / "theme.toml").write_text('[meta]\nname = "Наш клуб"\n', encoding="utf-8")
    monkeypatch.setenv("SCOREBOARD_CONFIG", str(club / "scoreboard.toml"))
    assert known_regulations() == ["america-2005", "club-2024", "novosibirsk-2007", "samara-2003"]
    session = Session()
    session.submit(make(0, "/sg/game/new", "club-2024", "cup"))
    assert session.snapshot()["regulation"] == "club-2024"
    assert "ours" in known_themes() and "classic" in known_themes()
    theme = load_theme("ours")
    assert theme.name == "Наш клуб" and theme.folder == club / "themes" / "ours" and theme.problems == []
    _, problems = check_config({"board": {"theme": "ours", "regulation": "club-2024"}, "osc": {"bind": "127.0.0.1"}},
                               "club.toml")
    assert problems == []
