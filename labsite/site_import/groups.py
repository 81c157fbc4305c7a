"""A lab site's groups ("Ph.D. Students", "Graduated Master Students", "博士研究生", "Alumni")
read as a member's role in the lab and whether they have left: the table of common
spellings, in English and Chinese, that the preview shows and the admin corrects."""

import re
from dataclasses import dataclass

from lab.models import MemberRole


@dataclass(frozen=True)
class GroupMapping:
    role: str  # a MemberRole value, or "" when the group says nothing of the role
    alumni: bool = False  # the group's people have left the lab
    person: bool = True  # False: the group holds accounts of the lab, not people


# Words that say the group's people have left (or still are here), in either language.
_LEFT = re.compile(
    r"\b(?:alumni|alumnae|alumnus|former|past|previous|graduated|graduates|ex)\b|"
    r"已毕业|毕业生|毕业|往届|前成员|离组|校友|已出站|出站",
    re.I,
)
_CURRENT = re.compile(r"\b(?:current|present|active)\b|在读|在站|现任|当前", re.I)
# The role each spelling stands for, longest words first where two could match.
_ROLES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(p, re.I), role)
    for p, role in (
        (r"post[\s-]?doc|postdoctoral|博士后", MemberRole.POSTDOC),
        (
            r"\bph\.?\s?d\b|doctoral|doctorate|\bdphil\b|\bgrad(?:uate)? students?|"
            r"博士生|博士研究生|在读博士|博士",
            MemberRole.PHD,
        ),
        (
            r"\bmasters?'?s?\b|\bm\.?\s?s\.?c?\b|\bmsc\b|\bm\.?eng\b|\bmphil\b|"
            r"硕士生|硕士研究生|研究生|硕士",
            MemberRole.MASTERS,
        ),
        (
            r"under[\s-]?grad|\bbachelor|\bb\.?\s?s\.?c?\b|\bbsc\b|本科生|本科|学士",
            MemberRole.UNDERGRAD,
        ),
        (r"\bintern|实习", MemberRole.INTERN),
        (r"visit|guest|访问|访学|客座", MemberRole.VISITOR),
        (
            r"principal investigator|\bpis?\b|\bleader|\bhead\b|(?<!project )\bdirector|"
            r"advisor|adviser|supervisor|负责人|组长|导师|主任|首席",
            MemberRole.PI,
        ),
        (
            r"faculty|professor|lecturer|co-?investigator|教授|教师|讲师|老师|研究员",
            MemberRole.FACULTY,
        ),
        (
            r"staff|researchers?|scientists?|engineers?|research assistants?|\bra\b|"
            r"technician|manage|administrat|secretar|coordinator|programmer|developer|"
            r"工程师|助理|秘书|行政|职员|科研人员",
            MemberRole.STAFF,
        ),
        (r"students?|学生", MemberRole.PHD),
    )
]
# Groups that are no people: collaborators elsewhere, the site's own accounts.
_NOT_MEMBERS = re.compile(r"\b(?:collaborators?|partners?|sponsors?|funders?)\b|合作者", re.I)


def mapping_of(group: str) -> GroupMapping:
    """What a group's name says: its role (or "" when it does not say) and whether its
    people have left. "Graduated Ph.D Students" is PhD and alumni; "Alumni" alone is alumni
    of an unknown role; "Current Post-Doc" is postdoc and current."""
    text = " ".join(group.replace("_", " ").split())
    alumni = bool(_LEFT.search(text)) and not _CURRENT.search(text)
    if _NOT_MEMBERS.search(text):
        return GroupMapping(role="", alumni=alumni, person=False)
    role = next((role for pattern, role in _ROLES if pattern.search(text)), "")
    return GroupMapping(role=str(role), alumni=alumni)


def mappings(groups: list[str], corrections: dict[str, GroupMapping] | None = None) -> dict:
    """{group: GroupMapping} for the groups a site uses, the admin's corrections winning."""
    corrections = corrections or {}
    return {group: corrections.get(group) or mapping_of(group) for group in groups}
