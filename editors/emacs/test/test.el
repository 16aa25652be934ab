;;; test.el --- headless test of editors/emacs/palace-eglot.el  -*- lexical-binding: t -*-

;; Run by test/run.sh: Emacs in batch mode loads the configuration the
;; README shows, opens a file of a fixture workspace, lets eglot start the
;; real `palace serve --lsp`, waits for the first mine, and asks
;; palace/relevant (through the configuration's palace-relevant) and
;; textDocument/hover through eglot's own connection. Prints one line per
;; check and closes with "N passed, N failed".

(require 'cl-lib)
(require 'eglot)

(defvar palace-test-passed 0)
(defvar palace-test-failed 0)

(defun palace-test-check (name ok &optional detail)
  (if ok
      (progn (cl-incf palace-test-passed) (princ (format "ok   %s\n" name)))
    (cl-incf palace-test-failed)
    (princ (format "FAIL %s%s\n" name (if detail (format ": %S" detail) ""))))
  ok)

(defun palace-test-wait (seconds pred)
  "Run the event loop until PRED holds or SECONDS pass; return PRED's value."
  (let ((end (+ (float-time) seconds)) v)
    (while (and (not (setq v (funcall pred))) (< (float-time) end))
      (accept-process-output nil 0.05))
    v))

(defun palace-test-write (root rel text)
  (let ((path (expand-file-name rel root)))
    (make-directory (file-name-directory path) t)
    (with-temp-file path (insert text))
    path))

(defconst palace-test-fixture
  '(("src/upload.go" . "package upload\n\nimport \"errors\"\n\n// verifyUpload checks a finished upload against the checksum the client sent.\nfunc verifyUpload(data []byte, want uint32) error {\n\tgot := computeChecksum(data)\n\tif got != want {\n\t\treturn errors.New(\"upload corrupted\")\n\t}\n\treturn nil\n}\n")
    ("src/checksum.go" . "package upload\n\nimport \"hash/crc32\"\n\nvar table = crc32.MakeTable(crc32.Castagnoli)\n\n// computeChecksum returns the CRC-32C of b.\nfunc computeChecksum(b []byte) uint32 {\n\treturn crc32.Checksum(b, table)\n}\n")
    ("docs/integrity.txt" . "Upload integrity\n\nEvery upload is checked with computeChecksum before it is stored.\nThe spec: https://example.com/specs/crc32c\n"))
  "The workspace: the cursor on computeChecksum in docs/integrity.txt should
bring its definition in src/checksum.go first.")

(defun palace-test-main ()
  (let* ((repo (getenv "PALACE_TEST_REPO"))
         (tmp (getenv "PALACE_TEST_TMP"))
         (bin (getenv "PALACE_TEST_BIN"))
         (ws (file-name-as-directory (expand-file-name "ws" tmp)))
         (config (expand-file-name "editors/emacs/palace-eglot.el" repo)))
    ;; The configuration under test is the one the READMEs show.
    (let ((text (with-temp-buffer (insert-file-contents config)
                                  (goto-char (point-min))
                                  (re-search-forward "^(with-eval-after-load")
                                  (buffer-substring (match-beginning 0) (point-max)))))
      (setq text (substring text 0 (string-match "\n;;; palace-eglot.el ends here" text)))
      (dolist (readme '("README.md" "server/lsp/README.md"))
        (palace-test-check (format "%s shows editors/emacs/palace-eglot.el verbatim" readme)
                           (with-temp-buffer
                             (insert-file-contents (expand-file-name readme repo))
                             (search-forward text nil t)))))
    (load config nil t)
    ;; The server is found on PATH, as a user's would be; the palace is a
    ;; temporary one.
    (setq exec-path (cons (file-name-directory bin) exec-path))
    (setenv "PATH" (concat (file-name-directory bin) path-separator (getenv "PATH")))
    (setenv "PALACE_HOME" (expand-file-name "home" tmp))
    (setenv "PALACE_MODEL_DIR" "")
    (dolist (f palace-test-fixture)
      (palace-test-write ws (car f) (cdr f)))
    (let ((default-directory ws))
      (call-process "git" nil nil nil "init" "-q" "."))  ; the project root eglot asks project.el for
    (find-file (expand-file-name "docs/integrity.txt" ws))
    (palace-test-check "the .txt file is in text-mode" (eq major-mode 'text-mode) major-mode)
    (apply #'eglot (eglot--guess-contact))
    (let ((server (palace-test-wait 30 #'eglot-current-server)))
      (unless (palace-test-check "eglot starts palace serve --lsp for the buffer" server)
        (cl-return-from palace-test-main))
      (palace-test-check "the server is palace" (equal (plist-get (eglot--server-info server) :name) "palace")
                         (eglot--server-info server))
      ;; The first mine, reported in palace/status.
      (let ((st (palace-test-wait
                 60 (lambda ()
                      (let ((st (jsonrpc-request server :palace/status nil)))
                        (and (>= (plist-get st :drawers) 3)
                             (cl-every (lambda (f) (equal (plist-get f :state) "idle"))
                                       (plist-get (plist-get st :server) :folders))
                             st))))))
        (palace-test-check "the workspace is mined into its wing"
                           (and st (equal (plist-get (aref (plist-get (plist-get st :server) :folders) 0) :wing) "ws"))
                           st))
      ;; palace/relevant at computeChecksum, through the configuration's command.
      (goto-char (point-min))
      (search-forward "computeChecksum")
      (backward-char 3)
      (let* ((res (palace-relevant))
             (hits (plist-get res :hits))
             (first (and (> (length hits) 0) (aref hits 0))))
        (palace-test-check "palace-relevant answers for the identifier at point" (equal (plist-get res :about) "computeChecksum") res)
        (palace-test-check "its definition comes first, by its path in the workspace"
                           (and first (equal (plist-get first :relPath) "src/checksum.go")
                                (equal (plist-get first :why) "definition of computeChecksum"))
                           first)
        (let ((shown (with-current-buffer "*palace*" (buffer-string))))
          (palace-test-check "*palace* lists it, titled and without ** markers"
                             (and (string-prefix-p "Relevant: computeChecksum\n" shown)
                                  (string-match-p "^src/checksum.go:1  definition of computeChecksum" shown)
                                  (not (string-match-p "\\*\\*" shown)))
                             shown)))
      ;; A URL under point is noise: the answer and *palace* say so.
      (goto-char (point-min))
      (search-forward "example.com/sp")
      (let* ((res (palace-relevant))
             (shown (with-current-buffer "*palace*" (buffer-string))))
        (palace-test-check "*palace* shows the note on what was skipped at point"
                           (and (plist-get res :note) (string-match-p "^Skipped the URL under the cursor" shown))
                           shown))
      ;; The wake-up handoff: the text an agent's SessionStart gets, as the
      ;; CLI prints it for the folder's wing.
      (let* ((res (palace-wake-up))
             (shown (with-current-buffer "*palace wake-up*" (buffer-string)))
             (cli (with-temp-buffer
                    (let ((default-directory ws))
                      (call-process bin nil t nil "wake-up" "--wing" "ws"))
                    (buffer-string))))
        (palace-test-check "palace-wake-up shows the handoff the CLI prints for the folder"
                           (and (string-match-p "computeChecksum\\|upload" shown)
                                (equal (string-trim shown) (string-trim cli)))
                           (list shown cli)))
      (with-current-buffer (find-buffer-visiting (expand-file-name "docs/integrity.txt" ws))
        (goto-char (point-min))
        (search-forward "computeChecksum")
        (backward-char 3))
      ;; Hover (on, by the configuration's initializationOptions).
      (let* ((h (jsonrpc-request server :textDocument/hover
                                 `(:textDocument ,(eglot--TextDocumentIdentifier)
                                   :position ,(eglot--pos-to-lsp-position))))
             (v (plist-get (plist-get h :contents) :value)))
        (palace-test-check "hover shows the definition in a fenced Go block"
                           (and v (string-match-p "```go\nvar table" v) (string-match-p "func computeChecksum" v))
                           v))
      ;; The server logs through window/logMessage, none of it an error.
      (let ((events (with-current-buffer (jsonrpc-events-buffer server) (buffer-string))))
        (palace-test-check "the server's log reaches eglot as window/logMessage"
                           (string-match-p "window/logMessage" events))
        (palace-test-check "no error in eglot's events" (not (string-match-p ":type 1\\b" events))
                           (and (string-match ".*:type 1\\b.*" events) (match-string 0 events))))
      ;; shutdown then exit, as eglot-shutdown sends them (Emacs 28's
      ;; jsonrpc-shutdown then kills the process without waiting, which
      ;; would hide the exit code).
      (let ((proc (jsonrpc--process server)))
        (setf (eglot--shutdown-requested server) t)
        (jsonrpc-request server :shutdown nil)
        (jsonrpc-notify server :exit nil)
        (palace-test-wait 10 (lambda () (not (process-live-p proc))))
        (palace-test-check "shutdown and exit end the server with exit code 0"
                           (and (not (process-live-p proc)) (eq (process-exit-status proc) 0))
                           (process-exit-status proc))))))

(condition-case err
    (palace-test-main)
  (error (palace-test-check "the test ran to its end" nil err)))
(princ (format "%d passed, %d failed\n" palace-test-passed palace-test-failed))
(kill-emacs (if (= palace-test-failed 0) 0 1))
