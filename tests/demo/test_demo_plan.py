"""The demo pack serves every stage of every shipped regulation (G3: a stage's rounds need their full topic count)."""
import pytest

from scoreboard.engine.commands import make
from scoreboard.demo.simulated import DEFAULT_STAGE, Director, _regulation
from scoreboard.session import Session

STAGES = [(regulation, stage) for regulation in sorted(DEFAULT_STAGE) for stage in _regulation(regulation).stages]


@pytest.mark.parametrize("regulation, stage", STAGES)
def test_g3_demo_pack_loads_for_every_stage_without_a_topic_twice(regulation, stage):
    """GIVEN the built-in demo pack and a stage (novosibirsk's final needs 6 topics in a round the pack has 4 of)
    WHEN the demo's opening commands are submitted to a real session THEN the engine accepts the pack and the game
    starts, and no topic is played in two rounds of the game."""
    director = Director(regulation, stage)
    session = Session()
    at = 0.0
    for step in director.opening():
        at += step.delay
        session.submit(make(at, step.address, *step.args, data=step.data))
    assert session.snapshot()["phase"] != "setup"
    names = [t["name"] for r in director.plan["rounds"] for t in r["topics"]]
    assert len(names) == len(set(names))
    for spec, planned in zip(_regulation(regulation).stage(stage).rounds, director.plan["rounds"]):
        assert len(planned["topics"]) == spec.topics
