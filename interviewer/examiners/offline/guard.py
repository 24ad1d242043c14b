"""Find sentences addressed to the grader rather than answering the question.

Candidate text is data: a sentence that asks for a score, gives orders to the
examiner or fakes a verdict is dropped before grading, so it can neither add
credit nor trigger anything.
"""

from __future__ import annotations

import re

from interviewer.examiners.offline.text import fold, fold_ja

_PATTERNS = [
    # orders to ignore or override instructions
    r"\b(ignore|disregard|forget|override|bypass)\b.{0,40}\b(instruction|rubric|prompt|rule|previous|above|guideline)",
    r"\b(ignora|dimentica|trascura)\b.{0,40}\b(istruzion|rubrica|prompt|regol|precedent)",
    # the grader / examiner addressed
    r"\b(dear|hey|hi|attention|note to)\s+(grader|examiner|evaluator|assessor|marker|reviewer|judge|ai|model)",
    r"\b(grader|examiner|evaluator|assessor|marker|valutatore|esaminatore|correttore)\b"
    r".{0,60}\b(you|please|give|award|10|punteggio|voto|dai|assegna|devi)\b",
    r"\b(you|please)\b.{0,40}\b(grader|examiner|evaluator|assessor|marker)\b",
    r"\byou are (an? )?(ai|llm|language model|assistant|grader|examiner)",
    r"\b(as an ai|new instructions|developer mode|jailbreak)\b",
    r"\b(ignore|override|reveal|print)\b.{0,30}\bsystem (prompt|message)",
    r"^\s*(system|assistant|developer)\s*:",
    r"\[(system|inst)\]|<\s*/?\s*(system|instructions?|answer|candidate|rubric)[^>]*>",
    # requests for a score
    r"\b(give|award|assign|grant)\b.{0,30}\b(me|this|my|the answer)\b.{0,30}"
    r"\b(10|ten|full|maximum|max|perfect|top|highest|100)\b",
    r"\b(rate|score|mark|grade)\s+(me|this answer|my answer|this response)\b.{0,30}"
    r"\b(10|ten|full|maximum|max|perfect|top|highest|high|highly|100)\b",
    r"\b(full|maximum|perfect|top)\s+(marks?|score|points?|grade)",
    r"\b(10|ten)\s*(/|out of|su)\s*(10|ten|dieci)\b",
    r"\b(deserves?|merits?|merita|meritano)\b.{0,30}\b(10|ten|full|maximum|perfect|high|massimo|pieni)",
    r"\b(dammi|assegnami|mettimi)\b.{0,30}\b(10|dieci|massimo|pieni|alto)\b",
    r"\b(dai|assegna|metti)\b.{0,20}\b(10|dieci|il massimo|pieni voti|punteggio pieno|voto pieno)\b",
    r"\b(punteggio|voto)\s+(massimo|pieno|perfetto)",
    r"\"?(score|overall|grade|verdict)\"?\s*:\s*\"?(10|[0-9]|strong|pass)",
]
_LATIN = re.compile("|".join(f"(?:{p})" for p in _PATTERNS))

_JA = re.compile(
    r"(採点者|評価者|試験官|採点AI|採点モデル|審査員|グレーダー|grader|examiner)"
    r"|満点|10点|10/10|１０点|高得点|最高点"
    r"|(高い点|高評価|点数|点)を?(つけて|付けて)(ください|下さい|ほしい|欲しい|くれ)|点をください|点をあげて"
    r"|指示を無視|指示は無視|以前の指示|これまでの指示|ルールを無視|システムプロンプト|^\s*(system|システム)\s*[:：]"
)


def is_grader_addressed(sentence: str) -> bool:
    """True for a sentence that talks to the grader instead of answering."""
    return bool(_LATIN.search(fold(sentence)) or _JA.search(fold_ja(sentence)))


# A sentence that names a wrong claim in order to reject it ("a common misconception is that…").
_REFUTE_LATIN = re.compile(
    r"\b(misconception|myth|common (mistake|error|pitfall|trap)|people (often |sometimes )?(think|believe|assume|claim|say)"
    r"|(is|are|that'?s|this is) (a )?(wrong|false|incorrect|not true|untrue|a mistake)\b|contrary to|mistakenly|wrongly|incorrectly"
    r"|it is tempting to (think|say|believe)"
    r"|misconcezion|\bmito\b|errore (comune|tipico|frequente)|(molti|spesso si) (pensa|pensano|crede|credono)"
    r"|(e|è) (sbagliato|falso|errato|un errore)|non (e|è) vero|erroneamente|contrariamente a)"
)
_REFUTE_JA = re.compile(r"誤解|よくある(間違い|誤り|勘違い)|と思われがち|と考えがち|俗説|間違いです|誤りです|勘違い")


def is_refutation(sentence: str) -> bool:
    """True for a sentence that states a wrong claim only to reject it."""
    return bool(_REFUTE_LATIN.search(fold(sentence)) or _REFUTE_JA.search(fold_ja(sentence)))
