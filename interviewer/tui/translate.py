"""Key-binding descriptions (footer, help panel) in the interview language.

Textual copies a class's BINDINGS into each instance when it is created, with
the descriptions as written in the source (English, marked with `N_`). Each
live screen's copy is rebuilt with translated descriptions when the language
changes, and each new screen when it becomes active; then the footer is
refreshed, so the whole app switches at once.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from textual.binding import Binding, BindingsMap
from textual.dom import DOMNode

from interviewer.i18n import N_, _, get_language

if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen

# Textual's own strings that reach the footer and the command palette.
TEXTUAL_STRINGS = (
    N_("palette"),
    N_("Open the command palette"),
    N_("Search for commands…"),
    N_("Theme"),
    N_("Change the current theme"),
    N_("Quit"),
    N_("Quit the application as soon as possible"),
    N_("Keys"),
    N_("Hide the keys and widget help panel"),
    N_("Show help for the focused widget and a summary of available keys"),
    N_("Minimize"),
    N_("Minimize the widget and restore to normal size"),
    N_("Maximize"),
    N_("Maximize the focused widget"),
    N_("Screenshot"),
    N_("Save an SVG 'screenshot' of the current screen"),
)

_SOURCE_ATTR = "_i18n_binding_source"
_LANG_ATTR = "_i18n_binding_lang"


def _translate(binding: Binding) -> Binding:
    return replace(
        binding,
        description=_(binding.description) if binding.description else binding.description,
        tooltip=_(binding.tooltip) if binding.tooltip else binding.tooltip,
    )


def translate_node_bindings(node: DOMNode) -> None:
    """Rebuild one live node's bindings from the English ones it was created with."""
    if node.__dict__.get(_LANG_ATTR) == get_language():
        return
    source = node.__dict__.get(_SOURCE_ATTR)
    if source is None:  # first time: what Textual copied from BINDINGS (plus run-time additions) is English
        source = node._bindings.copy()
        setattr(node, _SOURCE_ATTR, source)
    node._bindings = BindingsMap.from_keys(
        {k: [_translate(b) for b in bs] for k, bs in source.key_to_bindings.items()}
    )
    setattr(node, _LANG_ATTR, get_language())


def screen_changed(screen: Screen[object]) -> None:
    """A screen became active: make sure its footer speaks the current language."""
    if screen.__dict__.get(_LANG_ATTR) != get_language():
        translate_node_bindings(screen)
        screen.refresh_bindings()


def retranslate_app(app: App[Any]) -> None:
    """After `set_language`: every binding description, then each screen's own texts."""
    translate_node_bindings(app)
    for screen in app.screen_stack:
        translate_node_bindings(screen)
        relabel = getattr(screen, "retranslate", None)
        if relabel is not None:
            relabel()
    if app.screen_stack:
        app.screen.refresh_bindings()
