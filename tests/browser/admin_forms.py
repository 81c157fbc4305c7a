"""What a person does in the admin's forms, written once for every browser test."""


def pick(page, select_id, text):
    """Choose `text` in an admin autocomplete (select2): open it, type into its own search
    box (filled once the box is there, so no keystroke goes anywhere else while it opens),
    click the match the server sent back."""
    page.click(f"#{select_id} + .select2")
    page.locator(".select2-container--open .select2-search__field").fill(text)
    page.locator(".select2-results__option[role=option]", has_text=text).click()
