"""puzint: solve state-space puzzles written as short declarative `.puz` specs.

Data flows one way: text -> parse tree (`language.parser`) -> syntax model
(`language.syntax`) -> instantiated puzzle (`language.elaborate`) -> compiled puzzle
(`compiler`) -> search (`search`) -> result -> rendering (`render`).
"""

__version__ = "0.1.0"
