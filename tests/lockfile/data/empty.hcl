# Only a comment.
