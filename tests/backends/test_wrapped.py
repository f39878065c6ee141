"""The gate's and the recorder's chat models (backends/wrapped.py) are named after the
model they wrap and pass its plain calls through, synchronously and asynchronously: the
gate counts the asynchronous call, the recorder keeps neither."""

import asyncio
from pathlib import Path

from langchain_core.language_models import BaseChatModel

from autowerewolf.backends.gate import GatedChatModel, ModelGate
from autowerewolf.backends.recorded import AnswerBook, RecordedChatModel
from autowerewolf.backends.simulated import SimulatedChatModel


def test_wrappers_are_named_after_the_inner_model_and_pass_plain_calls(tmp_path: Path) -> None:
    inner = SimulatedChatModel(latency_s=0.0)
    gate = ModelGate(max_in_flight=1)
    book = AnswerBook(tmp_path / "answers.db")
    wrappers: list[tuple[BaseChatModel, str]] = [
        (GatedChatModel(inner=inner, gate=gate), "gated-simulated"),
        (RecordedChatModel(inner=inner, book=book, identity={}), "recorded-simulated"),
    ]
    for model, name in wrappers:
        assert model._llm_type == name
        assert model.invoke("Tell the night.").content == "The night ends."
        assert asyncio.run(model.ainvoke("Tell the night.")).content == "The night ends."
    assert gate.stats.calls == 1
    assert not (tmp_path / "answers.db").exists()
