"""The two editing roles, as the auth groups the migrations create, and who holds which."""

LAB_ADMIN_GROUP = "Lab admin"
LAB_MEMBER_GROUP = "Lab member"


def is_lab_admin(user):
    """Superusers and the "Lab admin" group edit everything (cached on the user)."""
    if not hasattr(user, "_is_lab_admin"):
        user._is_lab_admin = user.is_active and (
            user.is_superuser or user.groups.filter(name=LAB_ADMIN_GROUP).exists()
        )
    return user._is_lab_admin
