;;; emacs.el --- Emacs in batch mode as an eglot client of the built server  -*- lexical-binding: t -*-

;; Loaded after docs/editors.md's Emacs recipe, as a user's init would be. Opens SKILL_FILE as a user does, waits for
;; its diagnostics, asks eglot for a hover (through eldoc) and a definition (through xref, as M-. does) where
;; HOVER_LINE/_CHAR and DEFINITION_LINE/_CHAR say, and, when
;; SKILLGRAPH_WORKSPACE_CONFIGURATION is set, changes `eglot-workspace-configuration' and signals it, as a user
;; does after editing it, and waits for the findings to change. SKILLGRAPH_INIT_OPTIONS, when set, replaces the
;; recipe's :initializationOptions value, as a user editing the recipe would. With SKILLGRAPH_MODES_FOR (file
;; names, one per line) it only prints the major mode each would open in. Prints one line per result for
;; emacs.test.ts.

(require 'cl-lib)
(require 'flymake)
(require 'xref)

(defun skillgraph-test-out (format-string &rest args)
  (princ (concat (apply #'format format-string args) "\n")))

(defun skillgraph-test-wait (predicate seconds)
  "Let the server's messages in until PREDICATE returns non-nil or SECONDS pass; return its last value."
  (let ((deadline (+ (float-time) seconds))
        value)
    (while (and (not (setq value (funcall predicate))) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    value))

(defun skillgraph-test-goto (name)
  "Move to the position in the environment variables NAME_LINE and NAME_CHAR (zero-based)."
  (goto-char (point-min))
  (forward-line (string-to-number (getenv (concat name "_LINE"))))
  (forward-char (string-to-number (getenv (concat name "_CHAR")))))

(defun skillgraph-test-diagnostics ()
  "Flymake's diagnostics in the current buffer, one line each, as line:column type text."
  (sort (mapcar (lambda (diagnostic)
                  (save-excursion
                    (goto-char (flymake-diagnostic-beg diagnostic))
                    (format "DIAG %d:%d %s %s" (1- (line-number-at-pos)) (current-column)
                            (flymake-diagnostic-type diagnostic) (flymake-diagnostic-text diagnostic))))
                (flymake-diagnostics))
        #'string<))

(defun skillgraph-test-findings (previous)
  "The diagnostics, once there are some and they differ from PREVIOUS."
  (skillgraph-test-wait (lambda ()
                          (let ((now (skillgraph-test-diagnostics)))
                            (and now (not (equal now previous)) now)))
                        20))

(defun skillgraph-test-replace-init-options (options)
  "Put OPTIONS in place of the :initializationOptions of the recipe's `eglot-server-programs' entry."
  (let* ((entry (cl-find-if (lambda (entry)
                              (cl-some (lambda (mode) (eq (car-safe mode) 'skillgraph-markdown-mode))
                                       (car entry)))
                            eglot-server-programs))
         (contact (copy-sequence (cdr entry))))
    (unless entry (error "The recipe added no entry for skillgraph-markdown-mode"))
    (setf (plist-get (cddr contact) :initializationOptions) options)
    (push (cons (car entry) contact) eglot-server-programs)))

(defun skillgraph-test-logs (server)
  "What the server logged (window/logMessage), from eglot's events buffer."
  (with-current-buffer (jsonrpc-events-buffer server)
    (let (logs)
      (goto-char (point-min))
      (while (re-search-forward "\"\\(skillgraph: [^\"]*\\)\"" nil t)
        (push (match-string 1) logs))
      (nreverse logs))))

(defun skillgraph-test-main ()
  (let ((options (getenv "SKILLGRAPH_INIT_OPTIONS")))
    (when options (skillgraph-test-replace-init-options (car (read-from-string options)))))
  (find-file (getenv "SKILL_FILE"))
  (skillgraph-test-out "MODE %s" major-mode)
  ;; eglot-ensure connects from `post-command-hook', after the command that visited the file: run it as the
  ;; command loop would.
  (run-hooks 'post-command-hook)
  (unless (skillgraph-test-wait (lambda () eglot--managed-mode) 20) (error "eglot did not manage the buffer"))
  (let* ((server (eglot-current-server))
         (buffer (current-buffer))
         (findings (progn (flymake-start) (skillgraph-test-findings nil))))
    (skillgraph-test-out "DIAGNOSTICS %s" (if findings "t" "nil"))
    (dolist (line findings) (skillgraph-test-out "%s" line))
    (when (getenv "HOVER_LINE")
      (skillgraph-test-goto "HOVER")
      (let ((hover 'none))
        (eglot-hover-eldoc-function (lambda (info &rest _) (setq hover info)))
        (skillgraph-test-wait (lambda () (not (eq hover 'none))) 10)
        (skillgraph-test-out "HOVER %s" (replace-regexp-in-string "\n" "\\\\n" (format "%s" hover)))))
    (when (getenv "DEFINITION_LINE")
      (skillgraph-test-goto "DEFINITION")
      (xref-find-definitions (xref-backend-identifier-at-point (xref-find-backend)))
      (skillgraph-test-out "DEFINITION %s %d:%d" (file-name-nondirectory (buffer-file-name))
                           (1- (line-number-at-pos)) (current-column)))
    (switch-to-buffer buffer)
    (let ((configuration (getenv "SKILLGRAPH_WORKSPACE_CONFIGURATION")))
      (when configuration
        (setq-default eglot-workspace-configuration (car (read-from-string configuration)))
        (eglot-signal-didChangeConfiguration server)
        (let ((after (skillgraph-test-findings findings)))
          (skillgraph-test-out "CHANGED %s" (if after "t" "nil"))
          (dolist (line after) (skillgraph-test-out "%s" line)))))
    (dolist (log (skillgraph-test-logs server)) (skillgraph-test-out "LOG %s" log))
    (eglot-shutdown server)))

(defun skillgraph-test-modes (files)
  "The major mode each of FILES opens in, as visiting it would choose, without visiting it."
  (dolist (file files)
    (with-temp-buffer
      (setq buffer-file-name file)
      (set-auto-mode)
      (skillgraph-test-out "MODEFOR %s %s" file major-mode)
      (setq buffer-file-name nil))))

(condition-case error
    (let ((files (getenv "SKILLGRAPH_MODES_FOR")))
      (if files (skillgraph-test-modes (split-string files "\n" t)) (skillgraph-test-main))
      (kill-emacs 0))
  (error (skillgraph-test-out "ERROR %S" error) (kill-emacs 1)))
