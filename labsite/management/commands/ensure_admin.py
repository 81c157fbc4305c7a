"""Create the `admin` superuser with a fresh random password, printed once."""

import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Create an `admin` superuser with a newly generated password, unless one exists."

    def add_arguments(self, parser):
        parser.add_argument("--username", default="admin")

    def handle(self, *args, username, **options):
        User = get_user_model()
        if User.objects.filter(username=username).exists():
            self.stdout.write(
                f"The user “{username}” already exists; its password was printed when it was "
                f"created. To set a new one: python manage.py changepassword {username}"
            )
            return
        password = secrets.token_urlsafe(15)
        User.objects.create_superuser(username=username, email="", password=password)
        self.stdout.write(
            self.style.SUCCESS(
                f"Created the superuser “{username}”. Its password, shown only this once:\n\n"
                f"    {password}\n"
            )
        )
