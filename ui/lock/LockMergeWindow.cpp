#include "ui/lock/LockMergeWindow.h"

#include "model/core/Logging.h"
#include "model/lockfile/LockWriter.h"
#include "model/lockitems/LockMergeModel.h"
#include "ui/FormRows.h"
#include "ui/lock/HclHighlighter.h"
#include "ui/lock/LockCodeEditor.h"

#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QCommandLineParser>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QSplitter>
#include <QStatusBar>
#include <QStyledItemDelegate>
#include <QTextStream>
#include <QToolBar>
#include <QTreeView>
#include <QUndoCommand>
#include <QUndoStack>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;
using provender::lockmerge::Choice;

namespace provender::ui {

/// One choice for one provider or foreign block.
class ChoiceCommand final : public QUndoCommand
{
public:
    ChoiceCommand(LockMergeWindow *window, int topRow, Choice before, Choice after, const QString &text)
        : QUndoCommand(text),
          m_window(window),
          m_top(topRow),
          m_before(before),
          m_after(after)
    {}
    void redo() override { m_window->applyChoice(m_top, m_after); }
    void undo() override { m_window->applyChoice(m_top, m_before); }

private:
    LockMergeWindow *m_window;
    int m_top;
    Choice m_before;
    Choice m_after;
};

namespace {

QString choiceLabel(Choice c)
{
    switch (c) {
    case Choice::Automatic: return QObject::tr("Automatic");
    case Choice::Ours: return QObject::tr("Take Ours");
    case Choice::Theirs: return QObject::tr("Take Theirs");
    case Choice::Union: return QObject::tr("Union of Hashes");
    case Choice::Base: return QObject::tr("Take Base");
    }
    return {};
}

/// Row colours by state, and a combo box of the offered choices in the result column.
class MergeDelegate final : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        const QString state = index.data(LockMergeModel::StateRole).toString();
        if (index.parent().isValid())
            return;
        if (state == u"conflict"_s)
            option->backgroundBrush = QColor(0xff, 0xdc, 0xe0);
        else if (state == u"chosen"_s)
            option->backgroundBrush = QColor(0xdb, 0xed, 0xff);
        else if (state == u"merged"_s)
            option->backgroundBrush = QColor(0xe6, 0xff, 0xed);
    }

    QWidget *createEditor(QWidget *parent, const QStyleOptionViewItem &, const QModelIndex &index) const override
    {
        auto *combo = new QComboBox(parent);
        for (const QVariant &v : index.data(LockMergeModel::ChoicesRole).toList())
            combo->addItem(choiceLabel(Choice(v.toInt())), v.toInt());
        return combo;
    }
    void setEditorData(QWidget *editor, const QModelIndex &index) const override
    {
        auto *combo = static_cast<QComboBox *>(editor);
        combo->setCurrentIndex(combo->findData(index.data(LockMergeModel::ChoiceRole).toInt()));
    }
    void setModelData(QWidget *editor, QAbstractItemModel *model, const QModelIndex &index) const override
    {
        auto *combo = static_cast<QComboBox *>(editor);
        model->setData(index, combo->currentData(), Qt::EditRole);
    }
};

QString editorText(const QByteArray &bytes)
{
    QString s = QString::fromUtf8(bytes);
    s.replace(u"\r\n"_s, u"\n"_s);
    return s;
}

} // namespace

LockMergeWindow::LockMergeWindow(QWidget *parent) : QMainWindow(parent)
{
    m_undo = new QUndoStack(this);
    m_model = new LockMergeModel(this);
    m_model->setChoiceHandler([this](int top, Choice c) {
        const QString key = m_model->keyOf(top);
        return choose(key, c);
    });
    buildUi();
    connect(m_model, &LockMergeModel::resultChanged, this, &LockMergeWindow::refreshResult);
    connect(m_undo, &QUndoStack::cleanChanged, this, &LockMergeWindow::updateActions);
    connect(m_undo, &QUndoStack::indexChanged, this, &LockMergeWindow::updateActions);
    setWindowTitle(tr("Merge Lock Files[*] — Provender"));
    resize(1280, 760);
    updateActions();
}

LockMergeWindow::~LockMergeWindow()
{
    // ~QWidget deletes the actions before the undo stack, whose destructor still signals.
    disconnect(m_undo, nullptr, this, nullptr);
    disconnect(m_model, nullptr, this, nullptr);
    if (m_view->selectionModel())
        disconnect(m_view->selectionModel(), nullptr, this, nullptr);
}

void LockMergeWindow::buildUi()
{
    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(4, 4, 4, 4);
    m_inputs = selectableLabel(u"inputsLabel"_s, central);
    layout->addWidget(m_inputs);

    auto *splitter = new QSplitter(Qt::Horizontal, central);
    m_view = new QTreeView(splitter);
    m_view->setObjectName(u"mergeView"_s);
    m_view->setModel(m_model);
    m_view->setItemDelegate(new MergeDelegate(m_view));
    m_view->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::SelectedClicked | QAbstractItemView::EditKeyPressed);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(false);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->header()->setStretchLastSection(true);
    auto *right = new QWidget(splitter);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    m_summary = new QLabel(right);
    m_summary->setObjectName(u"summaryLabel"_s);
    m_summary->setStyleSheet(u"font-weight: bold; padding: 2px 4px;"_s);
    rightLayout->addWidget(m_summary);
    m_result = new LockCodeEditor(right);
    m_result->setObjectName(u"resultText"_s);
    m_result->setReadOnly(true);
    m_highlighter = new HclHighlighter(m_result->document());
    rightLayout->addWidget(m_result);
    splitter->addWidget(m_view);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({820, 660});
    layout->addWidget(splitter, 1);
    setCentralWidget(central);

    QMenu *file = menuBar()->addMenu(tr("&File"));
    m_saveAction = file->addAction(tr("&Save"), QKeySequence::Save, this, [this] { save(); });
    m_saveAction->setObjectName(u"actionSave"_s);
    QAction *saveAs = file->addAction(tr("Save &As…"), QKeySequence::SaveAs, this, &LockMergeWindow::saveAsDialog);
    saveAs->setObjectName(u"actionSaveAs"_s);
    file->addSeparator();
    file->addAction(tr("&Close"), QKeySequence::Close, this, &QWidget::close);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    QAction *undo = m_undo->createUndoAction(this, tr("&Undo"));
    undo->setObjectName(u"actionUndo"_s);
    undo->setShortcut(QKeySequence::Undo);
    QAction *redo = m_undo->createRedoAction(this, tr("&Redo"));
    redo->setObjectName(u"actionRedo"_s);
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);

    QMenu *merge = menuBar()->addMenu(tr("&Merge"));
    m_nextAction = merge->addAction(tr("&Next Conflict"), QKeySequence(Qt::Key_F8), this, &LockMergeWindow::nextConflict);
    m_nextAction->setObjectName(u"actionNextConflict"_s);
    merge->addSeparator();
    const QList<std::pair<Choice, const char *>> choices = {{Choice::Ours, "actionTakeOurs"},
                                                            {Choice::Theirs, "actionTakeTheirs"},
                                                            {Choice::Union, "actionTakeUnion"},
                                                            {Choice::Base, "actionTakeBase"},
                                                            {Choice::Automatic, "actionAutomatic"}};
    for (const auto &[choice, name] : choices) {
        const Choice c = choice;
        QAction *a = merge->addAction(choiceLabel(c), this, [this, c] { chooseForSelection(c); });
        a->setObjectName(QString::fromLatin1(name));
        m_choiceActions.append({a, c});
    }
    m_choiceActions.at(0).first->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_1));
    m_choiceActions.at(1).first->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_2));
    m_choiceActions.at(2).first->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_3));

    QToolBar *bar = addToolBar(tr("Merge"));
    bar->setObjectName(u"mergeToolBar"_s);
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    bar->addAction(m_saveAction);
    bar->addAction(undo);
    bar->addAction(redo);
    bar->addSeparator();
    bar->addAction(m_nextAction);
    for (const auto &[a, c] : m_choiceActions)
        bar->addAction(a);

    connect(m_view, &QWidget::customContextMenuRequested, this, [this](const QPoint &pos) {
        QMenu menu(this);
        for (const auto &[a, c] : m_choiceActions)
            menu.addAction(a);
        menu.exec(m_view->viewport()->mapToGlobal(pos));
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this, [this] { updateActions(); });
    statusBar();
}

bool LockMergeWindow::setInputs(const QByteArray &base, const QByteArray &ours, const QByteArray &theirs, const QString &outputPath,
                                const QStringList &labels)
{
    m_labels = labels.size() == 3 ? labels : QStringList{u"base"_s, u"ours"_s, u"theirs"_s};
    const lockmerge::MergeInput b = lockmerge::readMergeInput(base, m_labels.at(0));
    const lockmerge::MergeInput o = lockmerge::readMergeInput(ours, m_labels.at(1));
    const lockmerge::MergeInput t = lockmerge::readMergeInput(theirs, m_labels.at(2));
    QStringList problems;
    for (const auto &[in, label] : {std::pair{&b, m_labels.at(0)}, std::pair{&o, m_labels.at(1)}, std::pair{&t, m_labels.at(2)}})
        for (const LockDiagnostic &d : in->errors)
            problems << d.toString(label);
    if (!problems.isEmpty()) {
        m_error = tr("Cannot merge: an input has errors:\n%1").arg(problems.join(u'\n'));
        return false;
    }
    m_error.clear();
    m_output = outputPath;
    m_undo->clear();
    m_model->setMerge(lockmerge::mergeLockFiles(b, o, t));
    m_view->expandToDepth(-1);
    m_view->collapseAll();
    for (int i = 0; i < m_model->topRowCount(); ++i)
        if (m_model->isUnresolved(i))
            m_view->expand(m_model->index(i, 0));
    m_view->setColumnWidth(LockMergeModel::NameColumn, 330);
    for (int c = LockMergeModel::BaseColumn; c < LockMergeModel::ColumnCount - 1; ++c)
        m_view->resizeColumnToContents(c);
    QStringList dropped;
    for (const auto &[in, label] : {std::pair{&b, m_labels.at(0)}, std::pair{&o, m_labels.at(1)}, std::pair{&t, m_labels.at(2)}})
        for (const DroppedContent &d : in->dropped)
            dropped << u"%1:%2"_s.arg(label).arg(d.range.line);
    QString inputs = tr("Base: %1    Ours: %2    Theirs: %3    →  %4")
                         .arg(m_labels.at(0), m_labels.at(1), m_labels.at(2), m_output.isEmpty() ? tr("(not saved yet)") : m_output);
    if (!dropped.isEmpty())
        inputs += u'\n' + tr("Comments are not kept (as on every canonical write): %1").arg(dropped.join(u", "_s));
    m_inputs->setText(inputs);
    m_savedBytes.clear();
    if (!m_output.isEmpty()) {
        QFile f(m_output);
        if (f.open(QIODevice::ReadOnly))
            m_savedBytes = f.readAll();
    }
    m_saved = false;
    refreshResult();
    const int first = m_model->nextConflict(-1);
    selectTopRow(first >= 0 ? first : 0);
    return true;
}

bool LockMergeWindow::openFiles(const QString &base, const QString &ours, const QString &theirs, const QString &outputPath)
{
    QList<QByteArray> bytes;
    for (const QString &path : {base, ours, theirs}) {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) {
            m_error = tr("Cannot open %1: %2").arg(path, f.errorString());
            return false;
        }
        bytes << f.readAll();
    }
    return setInputs(bytes.at(0), bytes.at(1), bytes.at(2), outputPath.isEmpty() ? ours : outputPath, {base, ours, theirs});
}

bool LockMergeWindow::openConflictedFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        m_error = tr("Cannot open %1: %2").arg(path, f.errorString());
        return false;
    }
    return openConflictedBytes(f.readAll(), path);
}

bool LockMergeWindow::openConflictedBytes(const QByteArray &bytes, const QString &path)
{
    const Result<lockmerge::ConflictSplit> split = lockmerge::splitConflictMarkers(bytes, path);
    if (!split.ok()) {
        m_error = split.error().message;
        return false;
    }
    const QString name = QFileInfo(path).fileName();
    const QString oursLabel = split->oursLabel.isEmpty() ? u"ours"_s : split->oursLabel;
    const QString theirsLabel = split->theirsLabel.isEmpty() ? u"theirs"_s : split->theirsLabel;
    const bool ok = setInputs(split->base.value_or(QByteArray()), split->ours, split->theirs, QFileInfo(path).absoluteFilePath(),
                              {split->base ? name + u" (base)"_s : tr("(no base in the markers)"), name + u" ("_s + oursLabel + u')',
                               name + u" ("_s + theirsLabel + u')'});
    if (ok)
        setWindowTitle(tr("%1[*] — Resolve Conflicts — Provender").arg(name));
    return ok;
}

QByteArray LockMergeWindow::resultBytes() const
{
    return m_model->merge().bytes();
}

int LockMergeWindow::conflictCount() const
{
    return m_model->merge().conflictCount();
}

bool LockMergeWindow::isModified() const
{
    return resultBytes() != m_savedBytes;
}

QString LockMergeWindow::summaryText() const
{
    return m_summary->text();
}

void LockMergeWindow::refreshResult()
{
    const QByteArray bytes = resultBytes();
    m_result->setPlainText(editorText(bytes));
    // Conflict regions: ours' lines blue, theirs' yellow, the base's grey, marker lines darker.
    QList<QColor> backgrounds;
    const QStringList lines = m_result->toPlainText().split(u'\n');
    QColor section;
    for (const QString &line : lines) {
        if (line.startsWith(u"<<<<<<<"_s)) {
            section = QColor(0xdb, 0xed, 0xff);
            backgrounds << QColor(0xb6, 0xd7, 0xf5);
        } else if (line.startsWith(u"|||||||"_s) && section.isValid()) {
            section = QColor(0xee, 0xee, 0xee);
            backgrounds << QColor(0xd0, 0xd0, 0xd0);
        } else if (line == u"======="_s && section.isValid()) {
            section = QColor(0xff, 0xf5, 0xc8);
            backgrounds << QColor(0xe0, 0xd0, 0x90);
        } else if (line.startsWith(u">>>>>>>"_s) && section.isValid()) {
            section = QColor();
            backgrounds << QColor(0xe0, 0xd0, 0x90);
        } else {
            backgrounds << section;
        }
    }
    m_result->setRowDecorations(backgrounds, {});
    const int n = conflictCount();
    m_summary->setText(n == 0 ? tr("No conflicts: the result is canonical and ready to save")
                              : (n == 1 ? tr("1 unresolved conflict") : tr("%1 unresolved conflicts").arg(n))
                               + tr(": choose ours, theirs or union for each red row"));
    m_summary->setStyleSheet(n == 0 ? u"font-weight: bold; padding: 2px 4px; color: #1a7f37;"_s
                                    : u"font-weight: bold; padding: 2px 4px; color: #cf222e;"_s);
    updateActions();
    Q_EMIT resultChanged();
}

void LockMergeWindow::updateActions()
{
    const int top = currentTopRow();
    const QList<Choice> offered = m_model->choicesOf(top);
    for (const auto &[a, c] : m_choiceActions)
        a->setEnabled(top >= 0 && offered.contains(c));
    m_nextAction->setEnabled(conflictCount() > 0);
    setWindowModified(isModified());
}

int LockMergeWindow::currentTopRow() const
{
    const QModelIndex current = m_view->currentIndex();
    return current.isValid() ? current.data(LockMergeModel::TopRowRole).toInt() : -1;
}

void LockMergeWindow::selectTopRow(int top)
{
    if (top < 0 || top >= m_model->topRowCount())
        return;
    const QModelIndex index = m_model->index(top, 0);
    m_view->setCurrentIndex(index);
    m_view->scrollTo(index);
    // Scroll the text to the provider's block (or its conflict region).
    const QString key = m_model->keyOf(top);
    const QString needle = m_model->isForeignRow(top) ? key.section(u" #"_s, 0, 0) : u"provider \""_s + key + u'"';
    const QStringList lines = m_result->toPlainText().split(u'\n');
    for (int i = 0; i < lines.size(); ++i)
        if (lines.at(i).startsWith(needle)) {
            const int line = i > 0 && lines.at(i - 1).startsWith(u"<<<<<<<"_s) ? i : i + 1;
            m_result->goTo(line);
            break;
        }
    updateActions();
}

bool LockMergeWindow::choose(const QString &key, Choice choice)
{
    const int top = m_model->topRowOf(key);
    if (top < 0 || !m_model->choicesOf(top).contains(choice) || m_model->choiceOf(top) == choice)
        return false;
    m_undo->push(new ChoiceCommand(this, top, m_model->choiceOf(top), choice, tr("%1: %2").arg(key, lockmerge::toString(choice))));
    return true;
}

void LockMergeWindow::applyChoice(int top, Choice choice)
{
    m_model->setChoice(top, choice);
    selectTopRow(top);
}

void LockMergeWindow::chooseForSelection(Choice choice)
{
    QList<int> tops;
    for (const QModelIndex &i : m_view->selectionModel()->selectedRows())
        if (const int t = i.data(LockMergeModel::TopRowRole).toInt(); !tops.contains(t))
            tops << t;
    if (tops.isEmpty() && currentTopRow() >= 0)
        tops << currentTopRow();
    if (tops.size() > 1)
        m_undo->beginMacro(tr("%1 for %n item(s)", nullptr, int(tops.size())).arg(lockmerge::toString(choice)));
    for (int t : tops)
        choose(m_model->keyOf(t), choice);
    if (tops.size() > 1)
        m_undo->endMacro();
}

void LockMergeWindow::nextConflict()
{
    const int next = m_model->nextConflict(currentTopRow());
    if (next >= 0)
        selectTopRow(next);
}

QMessageBox::StandardButton LockMergeWindow::ask(const QString &title, const QString &text, QMessageBox::StandardButtons buttons)
{
    if (m_prompt)
        return m_prompt(title, text, buttons);
    return QMessageBox::question(this, title, text, buttons);
}

bool LockMergeWindow::save()
{
    if (m_output.isEmpty()) {
        saveAsDialog();
        return m_saved;
    }
    return saveAs(m_output);
}

bool LockMergeWindow::saveAs(const QString &path)
{
    if (const int n = conflictCount(); n > 0) {
        if (ask(tr("Save with Conflicts?"),
                tr("%n conflict(s) are not resolved. Save the file with conflict markers around them (tofu/terraform "
                   "will refuse it until they are resolved)?",
                   nullptr, n),
                QMessageBox::Save | QMessageBox::Cancel)
            != QMessageBox::Save)
            return false;
    }
    const QByteArray bytes = resultBytes();
    const Result<void> r = saveBytesAtomically(bytes, path);
    if (!r.ok()) {
        ask(tr("Cannot Save"), r.error().message, QMessageBox::Ok);
        return false;
    }
    m_output = path;
    m_savedBytes = bytes;
    m_saved = conflictCount() == 0;
    m_undo->setClean();
    statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
    qCInfo(lcUi) << "merge result saved to" << path << "with" << conflictCount() << "conflicts";
    updateActions();
    Q_EMIT saved(path);
    return true;
}

void LockMergeWindow::saveAsDialog()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Merged Lock File"), m_output);
    if (!path.isEmpty())
        saveAs(path);
}

void LockMergeWindow::closeEvent(QCloseEvent *event)
{
    if (isModified()) {
        const QMessageBox::StandardButton b = ask(tr("Save the Merge?"), tr("The merged result is not saved. Save it?"),
                                                  QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
        if (b == QMessageBox::Cancel || (b == QMessageBox::Save && !save())) {
            event->ignore();
            return;
        }
    }
    event->accept();
}

LockMergeWindow *openLockMergeWindow(QWidget *parent, const QString &path)
{
    auto *window = new LockMergeWindow;
    window->setAttribute(Qt::WA_DeleteOnClose);
    if (!window->openConflictedFile(path)) {
        QMessageBox::warning(parent, QObject::tr("Cannot Merge"), window->errorText());
        delete window;
        return nullptr;
    }
    window->show();
    return window;
}

int runLockMergeGui(const QStringList &words)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QObject::tr("Three-way merge of lock files in a window (for git mergetool): BASE OURS THEIRS, or one file with conflict markers."));
    parser.addHelpOption();
    QCommandLineOption gui(u"gui"_s, QObject::tr("Open the merge window (this)."));
    QCommandLineOption output({u"o"_s, u"output"_s}, QObject::tr("Save the result to OUT (default: OURS, or the marked file)."), u"OUT"_s);
    parser.addOption(gui);
    parser.addOption(output);
    parser.addPositionalArgument(u"BASE OURS THEIRS | FILE"_s, QObject::tr("The three versions, or a file with conflict markers."));
    const QStringList argv = QStringList{u"provender lock merge"_s} + words;
    QTextStream err(stderr);
    if (!parser.parse(argv)) {
        err << "provender lock merge --gui: " << parser.errorText() << '\n';
        return 2;
    }
    if (parser.isSet(u"help"_s)) {
        QTextStream(stdout) << parser.helpText();
        return 0;
    }
    const QStringList files = parser.positionalArguments();
    auto *window = new LockMergeWindow;
    window->setAttribute(Qt::WA_DeleteOnClose);
    bool ok = false;
    if (files.size() == 3)
        ok = window->openFiles(files.at(0), files.at(1), files.at(2), parser.value(output));
    else if (files.size() == 1 && !parser.isSet(output))
        ok = window->openConflictedFile(files.at(0));
    else {
        err << "provender lock merge --gui: give BASE OURS THEIRS [-o OUT], or one file with conflict markers\n";
        delete window;
        return 2;
    }
    if (!ok) {
        err << "provender lock merge --gui: " << window->errorText() << '\n';
        delete window;
        return 2;
    }
    // git mergetool exports MERGED: the work-tree path of the file being merged.
    const QString merged = qEnvironmentVariable("MERGED");
    if (!merged.isEmpty())
        window->setWindowTitle(QObject::tr("%1[*] — git mergetool — Provender").arg(merged));
    bool resolved = false;
    QObject::connect(window, &LockMergeWindow::saved, window, [&resolved, window] { resolved = window->conflictCount() == 0; });
    window->show();
    const int rc = QApplication::exec();
    return rc != 0 ? rc : (resolved ? 0 : 1);
}

} // namespace provender::ui
