"""html-to-text 9's text builders (``InlineTextBuilder``, ``BlockTextBuilder`` and its stack items), ported with
their rules: words wrapped to the line length left, blocks joined by the larger of the line breaks asked for
around them, list items prefixed and indented, whitespace collapsed as the ``WhitespaceProcessor`` does."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

WIDTH = 80
_WS = " \t\r\n\f\u200b"
_WORD = re.compile(f"[^{re.escape(_WS)}]+")
Transform = Callable[[str], str]


class InlineText:
    """``InlineTextBuilder``: the finished lines of words and the words of the line being filled."""

    def __init__(self, max_line_length: int) -> None:
        self.lines: list[list[str]] = []
        self.words: list[str] = []
        self.max = max_line_length
        self.available = max_line_length
        self.stashed_space = False

    def push_word(self, word: str) -> None:
        if self.available <= 0:
            self.new_line()
        line_start = not self.words
        cost = len(word) + (0 if line_start else 1)
        if cost <= self.available:
            self.words.append(word)
            self.available -= cost
            return
        if not line_start:
            self.new_line()
        self.words.append(word)
        self.available -= len(word)

    def concat_word(self, word: str) -> None:
        last = self.words.pop() if self.words else None
        if last is not None:
            self.available += len(last) + (0 if not self.words else 1)
        self.push_word(last + word if last else word)

    def new_line(self, count: int = 1) -> None:
        self.lines.append(self.words)
        self.lines.extend([] for _ in range(count - 1))
        self.words = []
        self.available = self.max

    def is_empty(self) -> bool:
        return not self.lines and not self.words

    def clear(self) -> None:
        self.lines, self.words, self.available = [], [], self.max

    def text(self) -> str:
        return "\n".join(" ".join(words) for words in [*self.lines, self.words])

    def shrink_wrap_add(self, text: str, transform: Transform | None) -> None:
        """``WhitespaceProcessor.shrinkWrapAdd``: collapse whitespace, glue a word to the last one when no
        whitespace separates them."""
        if not text:
            return
        stashed = self.stashed_space
        words = _WORD.findall(text)
        for number, word in enumerate(words):
            word = transform(word) if transform else word
            if number == 0 and not stashed and text[0] not in _WS:
                self.concat_word(word)
            else:
                self.push_word(word)
        self.stashed_space = (stashed and not words) or text[-1] in _WS


@dataclass(eq=False)
class Block:
    """A ``BlockStackItem`` (``prefix``/``max_prefix``/``inter_row`` for lists and their items). Its raw text is
    kept in pieces, joined once when the block closes."""

    max_line_length: int
    leading: int = 1
    pieces: list[str] = field(default_factory=list)
    stashed: int = 0
    pre: bool = False
    inline: InlineText = field(init=False)
    prefix: str = ""
    max_prefix: int = 0
    inter_row: int = 1

    def __post_init__(self) -> None:
        self.inline = InlineText(self.max_line_length)

    def add_raw(self, text: str) -> None:
        self.pieces.append(text)

    def text(self) -> str:
        raw = "".join(self.pieces)
        return raw if self.inline.is_empty() else raw + self.inline.text()

    def _flush_inline(self) -> bool:
        """Moves the inline text into the raw text; whether the block holds any text."""
        if not self.inline.is_empty():
            self.pieces.append(self.inline.text())
            self.inline.clear()
        return any(self.pieces)

    def add_text(self, text: str, leading: int, trailing: int) -> None:
        """``addText``: a closed child's text after what this block holds, with the line breaks between."""
        breaks = max(self.stashed, leading)
        if self._flush_inline():
            self.pieces.extend(("\n" * breaks, text))
        else:
            self.pieces, self.leading = [text], breaks
        self.stashed = trailing


class TextBuilder:
    """``BlockTextBuilder``: a stack of blocks under construction and the word transforms in force."""

    def __init__(self) -> None:
        self.stack: list[Block] = [Block(WIDTH)]
        self.transforms: list[Transform] = []

    @property
    def top(self) -> Block:
        return self.stack[-1]

    def add_inline(self, text: str, transform_words: bool = True) -> None:
        block = self.top
        if block.pre:
            block.add_raw(text)
            return
        if not text or (block.stashed and not _WORD.search(text)):
            return
        if block.stashed:
            block.inline.new_line(block.stashed)
        block.inline.shrink_wrap_add(text, self._transform() if transform_words else None)
        block.stashed = 0

    def _transform(self) -> Transform | None:
        if not self.transforms:
            return None
        transforms = list(reversed(self.transforms))

        def apply(word: str) -> str:
            for transform in transforms:
                word = transform(word)
            return word

        return apply

    def line_break(self) -> None:
        if self.top.pre:
            self.top.add_raw("\n")
        else:
            self.top.inline.new_line()

    def open_block(self, leading: int, reserved: int = 0, pre: bool = False) -> None:
        parent = self.top
        self.stack.append(Block(max(20, parent.inline.max - reserved), leading, pre=pre or parent.pre))

    def close_block(self, trailing: int, transform: Transform | None = None) -> None:
        block = self.stack.pop()
        text = transform(block.text()) if transform else block.text()
        self.top.add_text(text, block.leading, max(block.stashed, trailing))

    def open_list(self, leading: int, max_prefix: int) -> None:
        parent = self.top
        self.stack.append(Block(parent.inline.max, leading, pre=parent.pre, max_prefix=max_prefix))

    def open_list_item(self, prefix: str) -> None:
        lst = self.top
        width = max(len(prefix), lst.max_prefix)
        self.stack.append(Block(max(20, lst.inline.max - width), lst.inter_row, pre=lst.pre, prefix=prefix))

    def close_list_item(self) -> None:
        item = self.stack.pop()
        lst = self.top
        width = max(len(item.prefix), lst.max_prefix)
        text = item.prefix.ljust(width) + item.text().replace("\n", "\n" + " " * width)
        lst.add_text(text, item.leading, max(item.stashed, lst.inter_row))

    def close_list(self, trailing: int) -> None:
        lst = self.stack.pop()
        text = lst.text()
        if text:
            self.top.add_text(text, lst.leading, trailing)

    def result(self) -> str:
        return self.stack[0].text()


__all__ = ["WIDTH", "Block", "InlineText", "TextBuilder"]
