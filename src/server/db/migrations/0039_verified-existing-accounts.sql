-- Sign-in needs a verified email from decision 121 on. Accounts made before were signed in at sign-up without one
-- and are in use: they keep signing in. New sign-ups verify by their link; invited people by their invitation.
UPDATE "user" SET "email_verified" = true WHERE "email_verified" = false;
