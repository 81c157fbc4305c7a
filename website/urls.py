from django.urls import path, register_converter

from website import views


class AddressConverter:
    """A page's address: up to three slugs joined by "/" ("research/projects"). No dot, so
    a file's name (/wp-login.php) is never taken for a page, nor sent to /wp-login.php/."""

    regex = r"[-a-zA-Z0-9_]+(?:/[-a-zA-Z0-9_]+){0,2}"

    def to_python(self, value):
        return value

    def to_url(self, value):
        return value


register_converter(AddressConverter, "address")

app_name = "website"
urlpatterns = [
    # Last of all the site's addresses (labsite/urls.py): what no other page claims.
    path("<address:address>/", views.PageView.as_view(), name="page"),
]
