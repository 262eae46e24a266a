from pydantic import BaseModel


class Stock(BaseModel):
    title: str
    copies: int
