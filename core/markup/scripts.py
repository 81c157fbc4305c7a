"""The script a short text is written in (zh, ja or ko), so a page can mark its language
and browsers choose the right font."""

import re

_KANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7af]")
_HAN = re.compile(r"[\u3400-\u9fff]")


def detect_language(text):
    """The language a short text is written in when its script tells (zh, ja, ko); else en.
    Marked on the page as lang="…", so browsers choose the right font."""
    if _KANA.search(text):
        return "ja"
    if _HANGUL.search(text):
        return "ko"
    if _HAN.search(text):
        return "zh"
    return "en"


_LATIN = re.compile(r"[A-Za-z]")
_CJK = re.compile(r"[\u3040-\u30ff\uac00-\ud7af\u3400-\u9fff]")


def mostly_cjk_language(text):
    """zh, ja or ko when most of a text's letters are in that script ("记忆感知的大模型
    KVCache优化" is zh); None for a text mostly in Latin letters, even one that names "马腾"."""
    if len(_CJK.findall(text)) <= len(_LATIN.findall(text)):
        return None
    return detect_language(text)
