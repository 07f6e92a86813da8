"""The one place the shape of a sheet is defined, in one import: `from generator.model.types import Sheet`.

A sheet has metadata, a glossary of keywords, a changelog, and ordered sections of typed blocks. Fields typed
`Text` are prose in the sheet's language: they carry inline markup (see `generator.model.markup`) and are what
translators translate. Fields typed `Cell` are table contents that may be language-neutral ("4+", "2D6"); they
carry markup too. Each part is defined in its own module: `base` (the kinds of text and ids), `blocks/<type>`
(one block type, its model and its checks), `sheet` (the sheet, its sections and metadata), `handout_model`.
"""

# The names the rest of the package imports from here, each defined in the module named.
from generator.model.base import (
    EARLIEST_DATE,
    MAX_ROWS,
    MAX_TEXT,
    MIN_CONTRAST,
    TRANSLATABLE,
    Accent,
    Aliases,
    AsTyped,
    CharacteristicId,
    Date,
    EditionNumber,
    Fact,
    Finding,
    Id,
    LanguageCode,
    Model,
    OptionalText,
    RowRef,
    Text,
    Translatable,
    counted,
    edition_key,
    known_language,
    prose,
    verbatim_texts,
)
from generator.model.blocks import Block
from generator.model.blocks.block import BlockBase, Footnote, Subheading
from generator.model.blocks.dice import DiceBlock, DiceResult, DiceRow, InnerRoll, roll_findings
from generator.model.blocks.glossary import GlossaryBlock
from generator.model.blocks.matrix import MatrixBlock, MatrixRule
from generator.model.blocks.modifiers import Modifier, ModifiersBlock
from generator.model.blocks.preformatted import PreformattedBlock
from generator.model.blocks.roster import RosterBlock, RosterModel, RosterUnit
from generator.model.blocks.saves import NO_SAVE, MoveColumn, MovePenalty, Protection, SaveItem, SavesBlock, Troop
from generator.model.blocks.sequence import SequenceBlock, Step
from generator.model.blocks.table import Cell, Column, Columns, Row, TableBlock
from generator.model.blocks.text import Paragraph, Term, TextBlock
from generator.model.changes import PLAYERS_KINDS, Change, ChangeKind
from generator.model.handout_model import (
    MAX_COUNT,
    ArmyChoice,
    Carrier,
    Handout,
    HandoutModel,
    HandoutUnit,
    HandoutWeapon,
    Points,
    SaveSource,
    UnitProfile,
)
from generator.model.sheet import (
    Characteristic,
    Document,
    Edition,
    Group,
    Keyword,
    Paper,
    Section,
    Sheet,
)
