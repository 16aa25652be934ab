;;; palace-eglot.el --- Palace's LSP server in Emacs through eglot  -*- lexical-binding: t -*-

;; Emacs 28 with eglot (Debian: elpa-eglot), or Emacs 29+, which carries it.
;; eglot runs one server per buffer, so Palace gets the modes no other
;; server has: text-mode covers Markdown, Org and plain text, whose modes
;; derive from it.
(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs
               '(text-mode . ("palace" "serve" "--lsp"
                              :initializationOptions (:hover t)))))

(defun palace-relevant ()
  "Show the drawers relevant at point in the *palace* buffer, and return them."
  (interactive)
  (let* ((res (jsonrpc-request (eglot--current-server-or-lose) :palace/relevant
                               `(:textDocument ,(eglot--TextDocumentIdentifier)
                                 :position ,(eglot--pos-to-lsp-position))))
         (hits (plist-get res :hits)))
    (with-current-buffer (get-buffer-create "*palace*")
      (let ((inhibit-read-only t))
        (erase-buffer)
        (insert (format "Relevant: %s\n" (plist-get res :about)))
        (when (plist-get res :note) (insert (plist-get res :note) "\n"))
        (insert "\n")
        (if (seq-empty-p hits)
            ;; messages are Markdown; show `code` as code's words
            (insert (replace-regexp-in-string "`" "" (plist-get res :empty)) "\n")
          (seq-doseq (h hits)
            (insert (format "%s:%s  %s\n  %s\n\n"
                            (plist-get h :relPath) (plist-get h :line_start) (plist-get h :why)
                            ;; matches come as **word**; show the words
                            (replace-regexp-in-string "\\*\\*" "" (or (plist-get h :snippet) "")))))))
      (special-mode)
      (display-buffer (current-buffer)))
    res))

(defun palace-wake-up ()
  "Show the handoff an agent's session starts with (palace/wakeUp), and return it."
  (interactive)
  (let ((res (jsonrpc-request (eglot--current-server-or-lose) :palace/wakeUp nil)))
    (with-current-buffer (get-buffer-create "*palace wake-up*")
      (let ((inhibit-read-only t))
        (erase-buffer)
        (insert (plist-get res :text)))
      (special-mode)
      (display-buffer (current-buffer)))
    res))

;;; palace-eglot.el ends here
