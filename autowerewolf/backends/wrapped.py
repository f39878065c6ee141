"""A chat model around another (`inner`): the gate's (backends/gate.py) and the recorder's
(backends/recorded.py). Its plain (unstructured) calls pass through to `inner` and it is
named after it; a subclass decides what a call holds or awaits on the way and what its
structured output is."""

from collections.abc import Awaitable, Callable
from contextlib import AbstractContextManager, nullcontext
from typing import Any, ClassVar

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatResult
from pydantic import ConfigDict


class WrappedChatModel(BaseChatModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    inner: BaseChatModel
    prefix: ClassVar[str]

    @property
    def _llm_type(self) -> str:
        return f"{self.prefix}-{self.inner._llm_type}"

    def _held(self) -> AbstractContextManager[object]:
        """What a synchronous plain call holds while `inner` answers."""
        return nullcontext()

    async def _through(self, make_call: Callable[[], Awaitable[Any]]) -> Any:
        """How an asynchronous plain call reaches `inner` (`make_call()` asks it once)."""
        return await make_call()

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        with self._held():
            return self.inner._generate(messages, stop, **kwargs)

    async def _agenerate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        return await self._through(lambda: self.inner._agenerate(messages, *args, **kwargs))
