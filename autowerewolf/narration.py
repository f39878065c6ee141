"""The moderator's narration of public transitions. It only ever receives public events,
so it cannot leak what it was never given."""

from collections.abc import Sequence
from typing import Literal, Protocol

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage

from autowerewolf.rules.events import Audience, Event
from autowerewolf.transcript import describe

NarrationMode = Literal["llm", "template", "off"]
MODERATOR_PROMPT = (
    "You are the neutral moderator of a Werewolf game. Narrate the public events you are "
    "given in one to three vivid sentences. Use only these facts: never guess roles, causes "
    "of death or anyone's intentions."
)


class Narrator(Protocol):
    def narrate(self, events: Sequence[Event]) -> str | None: ...


def public_only(events: Sequence[Event]) -> list[Event]:
    return [e for e in events if e.audience is Audience.PUBLIC]


class TemplateNarrator:
    """One fixed sentence per public event: instant and exact."""

    def narrate(self, events: Sequence[Event]) -> str | None:
        lines = [describe(e) for e in public_only(events)]
        return "\n".join(lines) or None


class LLMNarrator:
    """The moderator model retells each step's public events; falls back to the template."""

    def __init__(self, chat: BaseChatModel) -> None:
        self.chat = chat
        self.template = TemplateNarrator()

    def narrate(self, events: Sequence[Event]) -> str | None:
        facts = self.template.narrate(events)
        if facts is None:
            return None
        try:
            reply = self.chat.invoke([SystemMessage(MODERATOR_PROMPT), HumanMessage(facts)])
        except Exception:
            return facts
        text = reply.content if isinstance(reply.content, str) else ""
        return text.strip() or facts
