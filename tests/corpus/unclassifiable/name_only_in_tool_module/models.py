from dataclasses import dataclass


@dataclass
class Stock:
    title: str
