"""What the trip planner knows at each turn."""
from typing import Literal
from pydantic import BaseModel, Field


class Stop(BaseModel):
    city: str
    nights: int = 1


class State(BaseModel):
    traveller: str                      # no default: an input of the skill
    destination: str = ""
    budget: Literal["low", "mid", "high"] = "mid"
    stops: list[Stop] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    coverage: float = 0.0
    approved: bool = False
    plan: str = ""
