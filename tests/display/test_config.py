"""config/scoreboard.toml: defaults, every problem at once (file, key, reason), and `config init`."""
import pytest

from scoreboard.display.config import DEFAULT_PATH, default_config, load_config, write_default


def test_config_init_writes_a_file_that_loads_clean(tmp_path):
    """GIVEN `config init` WHEN its file is loaded THEN it has no problem and equals the defaults."""
    path = write_default(tmp_path / "scoreboard.toml")
    config, problems = load_config(path)
    assert problems == [] and config == default_config()
    with pytest.raises(FileExistsError):
        write_default(path)


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


def test_shipped_config_is_clean():
    """GIVEN the repository's config/scoreboard.toml WHEN loaded THEN it has no problem."""
    from scoreboard import ROOT
    config, problems = load_config(ROOT / DEFAULT_PATH)
    assert problems == [] and config["screens"][0]["role"] == "audience"
