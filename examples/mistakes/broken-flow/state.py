from typing import Literal
from pydantic import BaseModel, Field


class State(BaseModel):
    topic: str
    depth: Literal["quick", "thorough"] = "quick"
    sources: list[str] = Field(default_factory=list)
    summary: str = ""
    ok: bool = False            # no node writes it
