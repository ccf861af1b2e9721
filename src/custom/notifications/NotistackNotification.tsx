import { Button } from '@mui/material';
import { type SnackbarKey, useSnackbar } from 'notistack';
import { useEffect, useRef } from 'react';
import { type NotificationPayload, useNotificationContext, useTakeUndoableMutation, useTranslate } from 'react-admin';

/**
 * Replaces react-admin's single Snackbar (Admin's `notification` prop): every `useNotify()` call is moved
 * from react-admin's notification queue into notistack, so toasts stack (SnackbarProvider: max 3,
 * bottom-left, 5 s). Undoable notifications keep react-admin's contract: Undo cancels the pending
 * mutation, closing the toast commits it.
 */
export const NotistackNotification = () => {
    const { notifications, setNotifications } = useNotificationContext();
    const { enqueueSnackbar, closeSnackbar } = useSnackbar();
    const takeMutation = useTakeUndoableMutation();
    const translate = useTranslate();
    const shown = useRef(new WeakSet<NotificationPayload>());

    useEffect(() => {
        if (notifications.length === 0) return;
        const batch = notifications;
        // Drop exactly the ones taken here; any added meanwhile stay queued for the next run.
        setNotifications((current) => current.filter((item) => !batch.includes(item)));
        for (const notification of batch) {
            if (shown.current.has(notification)) continue;
            shown.current.add(notification);
            const { message, type, notificationOptions = {} } = notification;
            const { autoHideDuration, messageArgs, undoable } = notificationOptions;
            const text = typeof message === 'string' ? translate(message, { _: message, ...messageArgs }) : message;
            let settled = false;
            const settle = (isUndo: boolean) => {
                if (settled || !undoable) return;
                settled = true;
                takeMutation()?.({ isUndo });
            };
            enqueueSnackbar(text, {
                variant: type ?? 'info',
                ...(autoHideDuration !== undefined ? { autoHideDuration } : {}),
                onClose: () => settle(false),
                action: undoable
                    ? (key: SnackbarKey) => (
                          <Button
                              color="inherit"
                              size="small"
                              onClick={() => {
                                  settle(true);
                                  closeSnackbar(key);
                              }}
                          >
                              {translate('ra.action.undo')}
                          </Button>
                      )
                    : undefined,
            });
        }
    }, [notifications, setNotifications, enqueueSnackbar, closeSnackbar, takeMutation, translate]);

    return null;
};
